import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { registerSchema } from '../../../../shared/auth.ts';
import { PASSWORD_MIN_LENGTH } from '../../../../shared/constants.ts';
import { validateForm } from '../../../lib/field-errors.ts';
import { ApiError, errorText } from '../../../lib/http.ts';
import { ErrorDialog, SuccessDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { register } from '../session.ts';

type Fields = {
  fullname: string;
  username: string;
  email: string;
  phone: string;
  password: string;
  reffer_by: string;
};

export function RegistrationForm({ referralCode }: { referralCode?: string }) {
  const navigate = useNavigate();
  const [fields, setFields] = useState<Fields>({
    fullname: '',
    username: '',
    email: '',
    phone: '',
    password: '',
    reffer_by: referralCode ?? '',
  });
  const [errors, setErrors] = useState<Record<string, string>>({});
  const [busy, setBusy] = useState(false);
  const [success, setSuccess] = useState('');
  const [serverError, setServerError] = useState('');

  const set = (name: keyof Fields) => (e: { target: { value: string } }) =>
    setFields({ ...fields, [name]: e.target.value });

  async function submit(event: FormEvent) {
    event.preventDefault();
    // The same schema the server validates with, so a mistake shows before any request is made.
    const parsed = validateForm(registerSchema, fields);
    if (parsed.errors) {
      setErrors(parsed.errors);
      return;
    }
    setErrors({});
    setBusy(true);
    try {
      const { message } = await register(parsed.output);
      setSuccess(message);
    } catch (error) {
      if (error instanceof ApiError && error.body.errors?.length) setErrors(error.fieldErrors());
      setServerError(errorText(error));
    } finally {
      setBusy(false);
    }
  }

  const common = { disabled: busy, required: true };
  return (
    <form className="form" onSubmit={submit} noValidate aria-busy={busy}>
      <FormField
        label="Full name"
        name="fullname"
        autoComplete="name"
        value={fields.fullname}
        onChange={set('fullname')}
        error={errors.fullname}
        {...common}
      />
      <FormField
        label="Username"
        name="username"
        autoComplete="username"
        hint="3 to 30 letters, digits or underscores"
        value={fields.username}
        onChange={set('username')}
        error={errors.username}
        {...common}
      />
      <FormField
        label="Email"
        name="email"
        type="email"
        inputMode="email"
        autoComplete="email"
        value={fields.email}
        onChange={set('email')}
        error={errors.email}
        {...common}
      />
      <FormField
        label="Phone"
        name="phone"
        type="tel"
        autoComplete="tel"
        value={fields.phone}
        onChange={set('phone')}
        error={errors.phone}
        {...common}
      />
      <FormField
        label="Password"
        name="password"
        type="password"
        autoComplete="new-password"
        hint={`At least ${PASSWORD_MIN_LENGTH} characters; a common password is refused`}
        value={fields.password}
        onChange={set('password')}
        error={errors.password}
        {...common}
      />
      <FormField
        label="Referral code (optional)"
        name="reffer_by"
        autoComplete="off"
        value={fields.reffer_by}
        onChange={set('reffer_by')}
        error={errors.reffer_by}
        disabled={busy}
      />
      <button type="submit" className="button primary block" disabled={busy}>
        {busy ? 'Creating account...' : 'Create account'}
      </button>
      <SuccessDialog open={success !== ''} message={success} onClose={() => navigate({ to: '/login' })} />
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}
