import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ACCOUNT_TEXT } from '../../../../shared/account.ts';
import { SIGN_IN_TEXT, signInSchema } from '../../../../shared/auth.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { safeRedirect, signInAdmin, signInMember } from '../session.ts';

/**
 * Member (/login) and admin (/admin-login) sign-in: the same form against separate calls. `initialEmail`
 * fills the e-mail in, e.g. right after registering.
 */
export function SignInForm({
  area,
  redirectTo,
  initialEmail,
}: {
  area: 'member' | 'admin';
  redirectTo?: string;
  initialEmail?: string;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [fields, setFields] = useState({ email: initialEmail ?? '', password: '' });
  const { errors: fieldErrors, busy, submit: submitWith } = useSchemaForm();
  const [serverError, setServerError] = useState('');

  function submit(event: FormEvent) {
    event.preventDefault();
    void submitWith(
      signInSchema,
      fields,
      async (input) => {
        if (area === 'admin') {
          await signInAdmin(queryClient, input);
          await navigate({ to: safeRedirect(redirectTo, '/admin/', '/admin/dashboard') });
        } else {
          await signInMember(queryClient, input);
          await navigate({ to: safeRedirect(redirectTo, '/user/', '/user/dashboard') });
        }
      },
      setServerError,
    );
  }

  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
      <FormField
        label="Email"
        type="email"
        name="email"
        autoComplete="username"
        inputMode="email"
        value={fields.email}
        error={fieldErrors.email}
        disabled={busy}
        onChange={(e) => setFields({ ...fields, email: e.target.value })}
      />
      <FormField
        label="Password"
        type="password"
        name="password"
        autoComplete="current-password"
        value={fields.password}
        error={fieldErrors.password}
        disabled={busy}
        onChange={(e) => setFields({ ...fields, password: e.target.value })}
      />
      {area === 'member' ? <Link to="/forgot-password">{ACCOUNT_TEXT.forgotLink}</Link> : null}
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Signing in...' : SIGN_IN_TEXT.signIn}
      </button>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}
