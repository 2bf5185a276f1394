import type { Banner } from './use-auto-clear.ts';
import './message-banner.css';

/** The user screens' success or error banner (spec 4 and 8); announced, and gone after 3 s. */
export function MessageBanner({ banner }: { banner: Banner }) {
  if (!banner) return null;
  return (
    <p
      className={`message-banner ${banner.tone}`}
      role={banner.tone === 'error' ? 'alert' : 'status'}
      data-testid={`banner-${banner.tone}`}
    >
      {banner.text}
    </p>
  );
}
