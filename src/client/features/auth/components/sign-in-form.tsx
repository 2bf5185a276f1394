import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { signInSchema } from '../../../../shared/auth.ts';
import { validateForm } from '../../../lib/field-errors.ts';
import { errorText } from '../../../lib/http.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { safeRedirect, signInAdmin, signInMember } from '../session.ts';

/** Member (/login) and admin (/admin-login) sign-in: the same form against separate calls. */
export function SignInForm({ area, redirectTo }: { area: 'member' | 'admin'; redirectTo?: string }) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [fields, setFields] = useState({ email: '', password: '' });
  const [fieldErrors, setFieldErrors] = useState<Record<string, string>>({});
  const [serverError, setServerError] = useState('');
  const [busy, setBusy] = useState(false);

  async function submit(event: FormEvent) {
    event.preventDefault();
    const parsed = validateForm(signInSchema, fields);
    if (parsed.errors) {
      setFieldErrors(parsed.errors);
      return;
    }
    setFieldErrors({});
    setBusy(true);
    try {
      if (area === 'admin') {
        await signInAdmin(queryClient, parsed.output);
        await navigate({ to: safeRedirect(redirectTo, '/admin/', '/admin/dashboard') });
      } else {
        await signInMember(queryClient, parsed.output);
        await navigate({ to: safeRedirect(redirectTo, '/user/', '/user/dashboard') });
      }
    } catch (error) {
      setServerError(errorText(error));
    } finally {
      setBusy(false);
    }
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
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Signing in...' : 'Sign in'}
      </button>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}
