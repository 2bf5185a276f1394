import { useQuery } from '@tanstack/react-query';
import '../notifications.css';
import { bannerQuery } from '../api.ts';

/** The newest banner an admin uploaded, at the top of the member dashboard; nothing when there is none. */
export function DashboardBanner() {
  const banner = useQuery(bannerQuery).data;
  if (!banner) return null;
  return (
    <img
      className="dashboard-banner"
      src={banner.url}
      alt="Announcement banner"
      data-testid="dashboard-banner"
      data-name={banner.name}
    />
  );
}
