import { createFileRoute } from '@tanstack/react-router';
import { TWO_FACTOR_TEXT } from '../../../shared/two-factor.ts';
import { TwoFactorAdminSetting } from '../../features/account/components/two-factor-admin-setting.tsx';
import { TwoFactorCard } from '../../features/account/components/two-factor-card.tsx';
import { MoneySettingsForm } from '../../features/settings/components/money-settings-form.tsx';

export const Route = createFileRoute('/admin/settings')({ component: SettingsPage });

/** Admin settings: the money rules, whether admins must use two-factor sign-in, and this admin's own. */
function SettingsPage() {
  return (
    <div className="stack">
      <h1>{TWO_FACTOR_TEXT.settingsTitle}</h1>
      <MoneySettingsForm />
      <TwoFactorAdminSetting />
      <TwoFactorCard title={TWO_FACTOR_TEXT.adminTitle} />
    </div>
  );
}
