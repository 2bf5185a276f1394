import { type FormEvent, useState } from 'react';
import { PROFILE_TEXT, type Profile, profileDetailsSchema } from '../../../../shared/profile.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { FormField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import type { ProfileUpdate } from '../profile-api.ts';

/** The member's details, and the form for the two they change themselves: full name and phone. */
export function ProfileDetailsCard({
  profile,
  save,
}: {
  profile: Profile;
  save: (input: ProfileUpdate) => Promise<string>;
}) {
  const [fullname, setFullname] = useState(profile.fullname);
  const [phone, setPhone] = useState(profile.phone);
  const { errors, busy, submit } = useSchemaForm();
  const banner = useAutoClearBanner();

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    void submit(
      profileDetailsSchema,
      { fullname, phone },
      async (input) => {
        const message = await save(input);
        setFullname(input.fullname);
        setPhone(input.phone);
        banner.success(message);
      },
      banner.error,
    );
  }

  return (
    <section className="card" aria-labelledby="profile-details-title">
      <h2 id="profile-details-title">{PROFILE_TEXT.details}</h2>
      <dl className="facts">
        <div>
          <dt>{PROFILE_TEXT.username}</dt>
          <dd data-testid="profile-username">{profile.username}</dd>
        </div>
        <div>
          <dt>{PROFILE_TEXT.email}</dt>
          <dd>{profile.email}</dd>
        </div>
        <div>
          <dt>{PROFILE_TEXT.sponsor}</dt>
          <dd data-testid="profile-sponsor">
            {profile.sponsor
              ? `${profile.sponsor.fullname} (${profile.sponsor.username})`
              : PROFILE_TEXT.noSponsor}
          </dd>
        </div>
        <div>
          <dt>{PROFILE_TEXT.referralCode}</dt>
          <dd>{profile.refferal_code}</dd>
        </div>
        <div>
          <dt>{PROFILE_TEXT.joined}</dt>
          <dd>{formatDateTime(profile.created_at)}</dd>
        </div>
      </dl>
      <form className="form" onSubmit={onSubmit} noValidate aria-busy={busy}>
        <FormField
          label={PROFILE_TEXT.fullname}
          name="fullname"
          autoComplete="name"
          value={fullname}
          error={errors.fullname}
          disabled={busy}
          onChange={(e) => setFullname(e.target.value)}
        />
        <FormField
          label={PROFILE_TEXT.phone}
          name="phone"
          type="tel"
          autoComplete="tel"
          value={phone}
          error={errors.phone}
          disabled={busy}
          onChange={(e) => setPhone(e.target.value)}
        />
        <MessageBanner banner={banner.banner} />
        <div className="form-actions">
          <button type="submit" className="button primary" disabled={busy}>
            {PROFILE_TEXT.save}
          </button>
        </div>
      </form>
    </section>
  );
}
