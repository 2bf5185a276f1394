import { useQuery } from '@tanstack/react-query';
import { publicSettingsQuery } from '../../../lib/settings.ts';

/** Beside the member's tickets: the support e-mail an admin set (Settings), or nothing when none is. */
export function SupportContact() {
  const { data } = useQuery(publicSettingsQuery);
  if (!data?.support_email) return null;
  return (
    <p className="muted" data-testid="support-contact">
      You can also write to {data.site_name} support at{' '}
      <a href={`mailto:${data.support_email}`}>{data.support_email}</a>.
    </p>
  );
}
