import { useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { registerSchema, SIGN_IN_TEXT } from '../../../../shared/auth.ts';
import { PASSWORD_MIN_LENGTH } from '../../../../shared/constants.ts';
import { DIALOG } from '../../../../shared/messages.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { Modal } from '../../../ui/modal.tsx';
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
  // The address the account was made with, for the sign-in form (the box may be edited meanwhile).
  const [registeredEmail, setRegisteredEmail] = useState('');
  const [serverError, setServerError] = useState('');

  const set = (name: keyof Fields) => (e: { target: { value: string } }) =>
    setFields({ ...fields, [name]: e.target.value });

  function submit(event: FormEvent) {
    event.preventDefault();
    void submitWith(
      registerSchema,
      fields,
      async (input) => {
        const { message } = await register(input);
        setRegisteredEmail(input.email);
        setSuccess(message);
      },
      setServerError,
    );
  }

  const toSignIn = () => navigate({ to: '/login', state: { email: registeredEmail } });

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
      {/* The spec's Success dialog, whose one way on is signing in: the e-mail goes along, filled in. */}
      <Modal open={success !== ''} title={DIALOG.successTitle} onClose={toSignIn} tone="success">
        <p>{success}</p>
        <div className="modal-actions">
          <button type="button" className="button primary" onClick={toSignIn}>
            {SIGN_IN_TEXT.signIn}
          </button>
        </div>
      </Modal>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}
