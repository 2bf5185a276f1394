import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { registerSchema } from '../../../../shared/auth.ts';
import { PASSWORD_MIN_LENGTH } from '../../../../shared/constants.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
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
  const { errors, busy, submit: submitWith } = useSchemaForm();
  const [success, setSuccess] = useState('');
  const [serverError, setServerError] = useState('');

  const set = (name: keyof Fields) => (e: { target: { value: string } }) =>
    setFields({ ...fields, [name]: e.target.value });

  function submit(event: FormEvent) {
    event.preventDefault();
    void submitWith(
      registerSchema,
      fields,
      async (input) => setSuccess((await register(input)).message),
      setServerError,
    );
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
