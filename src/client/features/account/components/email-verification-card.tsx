import { type FormEvent, useState } from 'react';
import toast from 'react-hot-toast';
import { ACCOUNT_TEXT, verifyCodeSchema } from '../../../../shared/account.ts';
import { errorText } from '../../../lib/http.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { ErrorDialog } from '../../../ui/dialogs.tsx';
import { FormField } from '../../../ui/form-field.tsx';
import { sendVerificationCode, verifyEmail } from '../api.ts';
import '../account.css';

/**
 * Whether the member's e-mail is verified; if not, a button mails a 6-digit code and a field takes it.
 * `onVerified` refreshes the session (the dashboard owns that query).
 */
export function EmailVerificationCard({
  email,
  verifiedAt,
  onVerified,
}: {
  email: string;
  verifiedAt: string | null;
  onVerified: () => Promise<unknown>;
}) {
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const [otp, setOtp] = useState('');
  const [serverError, setServerError] = useState('');
  const { errors, busy, submit } = useSchemaForm();

  async function send() {
    setSending(true);
    try {
      toast.success((await sendVerificationCode()).message);
      setSent(true);
    } catch (error) {
      setServerError(errorText(error));
    } finally {
      setSending(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(
      verifyCodeSchema,
      { otp },
      async (input) => {
        toast.success((await verifyEmail(input)).message);
        await onVerified();
      },
      setServerError,
    );
  }

  return (
    <section className="card" aria-labelledby="verify-title">
      <h2 id="verify-title">{ACCOUNT_TEXT.verifyTitle}</h2>
      <p>
        {email}{' '}
        <span className={`badge ${verifiedAt ? 'green' : 'grey'}`} data-testid="email-status">
          {verifiedAt ? ACCOUNT_TEXT.verified : ACCOUNT_TEXT.notVerified}
        </span>
      </p>
      {verifiedAt ? null : (
        <form className="form verify-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
          {sent ? (
            <FormField
              label={ACCOUNT_TEXT.code}
              name="otp"
              autoComplete="one-time-code"
              inputMode="numeric"
              maxLength={6}
              value={otp}
              error={errors.otp}
              disabled={busy}
              onChange={(e) => setOtp(e.target.value)}
            />
          ) : null}
          <div className="verify-actions">
            {sent ? (
              <button type="submit" className="button primary" disabled={busy}>
                {ACCOUNT_TEXT.verify}
              </button>
            ) : null}
            <button type="button" className="button" disabled={sending || busy} onClick={() => void send()}>
              {sent ? ACCOUNT_TEXT.sendCodeAgain : ACCOUNT_TEXT.sendCode}
            </button>
          </div>
        </form>
      )}
      <ErrorDialog open={serverError !== ''} error={serverError} onClose={() => setServerError('')} />
    </section>
  );
}
