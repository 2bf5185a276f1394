import { Link } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ACCOUNT, ACCOUNT_TEXT, resetPasswordSchema } from '../../../../shared/account.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { setNewPassword } from '../api.ts';
import '../account.css';

/** Sets a new password with the token from the e-mailed link; checked by the registration rules. */
export function ResetPasswordForm({ token }: { token: string }) {
  const [password, setPassword] = useState('');
  const [done, setDone] = useState('');
  const [serverError, setServerError] = useState('');
  const { errors, busy, submit } = useSchemaForm();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(
      resetPasswordSchema,
      { token, password },
      async (input) => setDone((await setNewPassword(input)).message),
      setServerError,
    );
  }

  if (done)
    return (
      <div className="account-done">
        <p className="notice" role="status">
          {done}
        </p>
        <Link to="/login" className="button primary block">
          {ACCOUNT_TEXT.backToSignIn}
        </Link>
      </div>
    );

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
      {errors.token || !token ? (
        <p className="field-error" role="alert">
          {errors.token ?? ACCOUNT.tokenRequired} <Link to="/forgot-password">{ACCOUNT_TEXT.forgotLink}</Link>
        </p>
      ) : null}
      <FormField
        label={ACCOUNT_TEXT.newPassword}
        type="password"
        name="password"
        autoComplete="new-password"
        value={password}
        error={errors.password}
        disabled={busy}
        onChange={(e) => setPassword(e.target.value)}
      />
      <button type="submit" className="button primary block" disabled={busy || !token}>
        {busy ? 'Saving...' : ACCOUNT_TEXT.savePassword}
      </button>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}
