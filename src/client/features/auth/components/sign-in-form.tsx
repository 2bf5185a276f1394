import { useQueryClient } from '@tanstack/react-query';
import { Link, useNavigate } from '@tanstack/react-router';
import { type FormEvent, useState } from 'react';
import { ACCOUNT_TEXT } from '../../../../shared/account.ts';
import { SIGN_IN_TEXT, signInSchema } from '../../../../shared/auth.ts';
import { anyCodeSchema, TWO_FACTOR_TEXT, totpCodeSchema } from '../../../../shared/two-factor.ts';
import { ApiError } from '../../../lib/http.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { safeRedirect, signInAdmin, signInMember, signInWithCode } from '../session.ts';

/**
 * Member (/login) and admin (/admin-login) sign-in: the same form against separate calls. `initialEmail`
 * fills the e-mail in, e.g. right after registering. With two-factor sign-in on, the password is
 * followed by a "Two-factor code" step (the app's 6 digits, or a recovery code).
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
  const [codeStep, setCodeStep] = useState(false);

  const enter = () =>
    area === 'admin'
      ? navigate({ to: safeRedirect(redirectTo, '/admin/', '/admin/dashboard') })
      : navigate({ to: safeRedirect(redirectTo, '/user/', '/user/dashboard') });

  function submit(event: FormEvent) {
    event.preventDefault();
    void submitWith(
      signInSchema,
      fields,
      async (input) => {
        const step =
          area === 'admin' ? await signInAdmin(queryClient, input) : await signInMember(queryClient, input);
        if (step === 'otp-required') setCodeStep(true);
        else await enter();
      },
      setServerError,
    );
  }

  if (codeStep)
    return (
      <CodeStep
        onSignedIn={enter}
        onStartOver={(message) => {
          setCodeStep(false);
          setFields({ ...fields, password: '' });
          if (message) setServerError(message);
        }}
      />
    );

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

/**
 * The second step: the code from the authenticator app, or a recovery code. When the server ends the
 * challenge (5 wrong codes, 5 minutes gone) it answers 401, and the person starts again at the password.
 */
function CodeStep({
  onSignedIn,
  onStartOver,
}: {
  onSignedIn: () => Promise<unknown>;
  onStartOver: (message?: string) => void;
}) {
  const queryClient = useQueryClient();
  const [recovery, setRecovery] = useState(false);
  const [code, setCode] = useState('');
  const [serverError, setServerError] = useState('');
  const { errors, setErrors, busy, submit } = useSchemaForm();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(
      recovery ? anyCodeSchema : totpCodeSchema,
      { code },
      async (input) => {
        try {
          await signInWithCode(queryClient, input);
        } catch (error) {
          if (error instanceof ApiError && error.status === 401) {
            onStartOver(error.message);
            return;
          }
          throw error;
        }
        await onSignedIn();
      },
      setServerError,
    );
  }

  function toggle() {
    setRecovery(!recovery);
    setCode('');
    setErrors({});
  }

  return (
    <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy} aria-labelledby="code-step-title">
      <h2 id="code-step-title">{TWO_FACTOR_TEXT.codeStep}</h2>
      <p className="muted">{recovery ? TWO_FACTOR_TEXT.recoveryStepIntro : TWO_FACTOR_TEXT.codeStepIntro}</p>
      <FormField
        key={recovery ? 'recovery' : 'app'}
        label={recovery ? TWO_FACTOR_TEXT.recoveryCode : TWO_FACTOR_TEXT.confirmCode}
        name="code"
        autoComplete="one-time-code"
        inputMode={recovery ? 'text' : 'numeric'}
        autoCapitalize="off"
        spellCheck={false}
        maxLength={recovery ? 11 : 6}
        value={code}
        error={errors.code}
        disabled={busy}
        onChange={(e) => setCode(e.target.value)}
      />
      <button type="submit" className="button primary block" disabled={busy}>
        {TWO_FACTOR_TEXT.verify}
      </button>
      <button type="button" className="button block" disabled={busy} onClick={toggle}>
        {recovery ? TWO_FACTOR_TEXT.useApp : TWO_FACTOR_TEXT.useRecovery}
      </button>
      <button type="button" className="button block" disabled={busy} onClick={() => onStartOver()}>
        {TWO_FACTOR_TEXT.startOver}
      </button>
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </form>
  );
}
