import { type FormEvent, useState } from 'react';
import { ACCOUNT_TEXT } from '../../../../shared/account.ts';
import type { PayoutNetwork } from '../../../../shared/payout-address.ts';
import {
  addressChangeSchemas,
  NETWORK_LABELS,
  PROFILE_TEXT,
  type Profile,
} from '../../../../shared/profile.ts';
import { errorText } from '../../../lib/http.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import { type ProfileUpdate, sendOtp } from '../profile-api.ts';

/**
 * Changing one payout address: the new address (checked by the same rule as the server, checksum
 * included), "Send code" (mails a code for purpose `address`), the 6-digit code, Save. An empty
 * address removes it; that needs the code too.
 */
export function AddressChangeForm({
  network,
  current,
  profile,
  save,
  onSaved,
  onCancel,
}: {
  network: PayoutNetwork;
  current: string | null;
  profile: Profile;
  save: (input: ProfileUpdate) => Promise<string>;
  onSaved: (message: string) => void;
  onCancel: () => void;
}) {
  const label = NETWORK_LABELS[network];
  const [address, setAddress] = useState(current ?? '');
  const [otp, setOtp] = useState('');
  const [sent, setSent] = useState(false);
  const [sending, setSending] = useState(false);
  const { errors, busy, submit } = useSchemaForm();
  const banner = useAutoClearBanner();

  async function send() {
    setSending(true);
    try {
      const { message } = await sendOtp({ userId: profile.id, email: profile.email, purpose: 'address' });
      setSent(true);
      banner.success(message);
    } catch (error) {
      banner.error(errorText(error));
    } finally {
      setSending(false);
    }
  }

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    const schema = addressChangeSchemas[network];
    void submit(
      schema,
      { [network]: address, otp },
      async (input) => {
        const value = (input as Partial<Record<PayoutNetwork, string | null>>)[network] ?? null;
        onSaved(await save({ [network]: value, otp: input.otp }));
      },
      banner.error,
    );
  }

  return (
    <form className="form address-form" onSubmit={onSubmit} noValidate aria-busy={busy}>
      <FormField
        label={PROFILE_TEXT.newAddress(label)}
        name={network}
        className="address-input"
        autoComplete="off"
        autoCapitalize="off"
        spellCheck={false}
        hint={PROFILE_TEXT.clearHint}
        value={address}
        error={errors[network]}
        disabled={busy}
        onChange={(e) => setAddress(e.target.value)}
      />
      <FormField
        label={PROFILE_TEXT.code}
        name="otp"
        autoComplete="one-time-code"
        inputMode="numeric"
        maxLength={6}
        className="code-input"
        value={otp}
        error={errors.otp}
        disabled={busy}
        onChange={(e) => setOtp(e.target.value)}
      />
      <MessageBanner banner={banner.banner} />
      <div className="form-actions">
        <button type="button" className="button" disabled={sending || busy} onClick={() => void send()}>
          {sent ? ACCOUNT_TEXT.sendCodeAgain : PROFILE_TEXT.sendCode}
        </button>
        <button type="submit" className="button primary" disabled={busy}>
          {PROFILE_TEXT.saveAddress}
        </button>
        <button type="button" className="button" disabled={busy} onClick={onCancel}>
          {PROFILE_TEXT.cancel}
        </button>
      </div>
    </form>
  );
}
