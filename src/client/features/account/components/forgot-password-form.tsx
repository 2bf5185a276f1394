import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ACCOUNT_TEXT, forgotPasswordSchema } from '../../../../shared/account.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { askForResetLink } from '../api.ts';
import '../account.css';

/** Asks for a reset link. The answer is the server's, the same for every address (RULES.md "Accounts"). */
export function ForgotPasswordForm() {
  const [email, setEmail] = useState('');
  const [sent, setSent] = useState('');
  const [serverError, setServerError] = useState('');
  const { errors, busy, submit } = useSchemaForm();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(
      forgotPasswordSchema,
      { email },
      async (input) => setSent((await askForResetLink(input)).message),
      setServerError,
    );
  }

  if (sent)
    return (
      <div className="account-done">
        <p className="notice" role="status">
          {sent}
        </p>
        <Link to="/login" className="button block">
          {ACCOUNT_TEXT.backToSignIn}
        </Link>
      </div>
    );

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
      <p className="muted">{ACCOUNT_TEXT.forgotIntro}</p>
      <FormField
        label="Email"
        type="email"
        name="email"
        autoComplete="email"
        inputMode="email"
        value={email}
        error={errors.email}
        disabled={busy}
        onChange={(e) => setEmail(e.target.value)}
      />
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Sending...' : ACCOUNT_TEXT.sendLink}
      </button>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}
