import { createFileRoute } from '@tanstack/react-router';
import { TWO_FACTOR_TEXT } from '../../../shared/two-factor.ts';
import { TwoFactorAdminSetting } from '../../features/account/components/two-factor-admin-setting.tsx';
import { TwoFactorCard } from '../../features/account/components/two-factor-card.tsx';
import { LevelPercents } from '../../features/plans/components/level-percents.tsx';
import { SettingsForm } from '../../features/settings/components/settings-form.tsx';

export const Route = createFileRoute('/admin/settings')({ component: SettingsPage });

/**
 * Admin settings: every rule RULES.md lets an admin change (money, income percents, lifetimes, the
 * site's name and support address), whether admins must use two-factor sign-in, and this admin's own.
 */
function SettingsPage() {
  return (
    <div className="stack">
      <h1>{TWO_FACTOR_TEXT.settingsTitle}</h1>
      <SettingsForm
        group="money"
        title="Money rules"
        note="A change applies to the next transfer, withdrawal request, investment or CTO payment, on every server at once; what was already sent, held, bought or paid keeps the values it was made with."
      />
      <section className="stack" aria-labelledby="income-percents-title">
        <h2 id="income-percents-title">Income percents</h2>
        <p className="muted">
          Level percents of activation and ROI level income (also on Plans); a change applies to the next
          top-up and the next daily run.
        </p>
        <LevelPercents />
      </section>
      <SettingsForm
        group="accounts"
        title="Codes and sign-in"
        note="Lifetimes apply to codes, links and sign-ins made after the change; those already out keep theirs."
      />
      <SettingsForm
        group="site"
        title="Site"
        note="Shown in every e-mail from the next one on, and to members beside their support tickets."
      />
      <TwoFactorAdminSetting />
      <TwoFactorCard title={TWO_FACTOR_TEXT.adminTitle} />
    </div>
  );
}
