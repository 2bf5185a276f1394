import { useState } from 'react';
import toast from 'react-hot-toast';
import { COPIED_LABEL_MS } from '../../../../shared/constants.ts';
import {
  NETWORK_LABELS,
  type PayoutAddress,
  PROFILE_TEXT,
  type Profile,
} from '../../../../shared/profile.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import type { ProfileUpdate } from '../profile-api.ts';
import { AddressChangeForm } from './address-change-form.tsx';

/** The BEP20 and TRC20 payout addresses: each shown whole (it wraps), copyable, changed with an e-mailed code. */
export function AddressesCard({
  profile,
  save,
}: {
  profile: Profile;
  save: (input: ProfileUpdate) => Promise<string>;
}) {
  return (
    <section className="card" aria-labelledby="addresses-title">
      <h2 id="addresses-title">{PROFILE_TEXT.addresses}</h2>
      <p className="muted">{PROFILE_TEXT.addressesIntro}</p>
      <ul className="address-list">
        {profile.addresses.map((address) => (
          <AddressItem key={address.network} address={address} profile={profile} save={save} />
        ))}
      </ul>
    </section>
  );
}

function AddressItem({
  address,
  profile,
  save,
}: {
  address: PayoutAddress;
  profile: Profile;
  save: (input: ProfileUpdate) => Promise<string>;
}) {
  const [editing, setEditing] = useState(false);
  const [copied, setCopied] = useState(false);
  const banner = useAutoClearBanner();
  const label = NETWORK_LABELS[address.network];
  const waiting = address.usable_from !== null && Date.parse(address.usable_from) > Date.now();

  async function copy(text: string) {
    try {
      await navigator.clipboard.writeText(text);
      setCopied(true);
      toast.success(PROFILE_TEXT.copied);
      setTimeout(() => setCopied(false), COPIED_LABEL_MS);
    } catch {
      toast.error('Copying is not allowed here. Select the address and copy it by hand.');
    }
  }

  return (
    <li className="address-item" data-testid={`address-${address.network}`}>
      <h3>{label}</h3>
      {address.address ? (
        <p className="address-value" data-testid={`address-${address.network}-value`}>
          {address.address}
        </p>
      ) : (
        <p className="muted">{PROFILE_TEXT.notSet}</p>
      )}
      {address.address && waiting && address.usable_from ? (
        <p className="muted" data-testid={`address-${address.network}-usable`}>
          {PROFILE_TEXT.usableFrom(formatDateTime(address.usable_from))}
        </p>
      ) : null}
      <MessageBanner banner={banner.banner} />
      {editing ? (
        <AddressChangeForm
          network={address.network}
          current={address.address}
          profile={profile}
          save={save}
          onSaved={(message) => {
            setEditing(false);
            banner.success(message);
          }}
          onCancel={() => setEditing(false)}
        />
      ) : (
        <div className="address-actions">
          {address.address ? (
            <button type="button" className="button" onClick={() => void copy(address.address ?? '')}>
              {copied ? 'Copied!' : PROFILE_TEXT.copy}
            </button>
          ) : null}
          <button
            type="button"
            className="button"
            aria-label={`${PROFILE_TEXT.change} ${label} address`}
            onClick={() => setEditing(true)}
          >
            {PROFILE_TEXT.change}
          </button>
        </div>
      )}
    </li>
  );
}
