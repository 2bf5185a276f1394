import { useEffect, useState } from 'react';
import { MESSAGE_AUTO_CLEAR_MS } from '../../shared/constants.ts';

export type Banner = { tone: 'success' | 'error'; text: string } | null;

/**
 * A banner handed from one screen to the next (e.g. the profile of a member just erased goes back to the
 * list): kept in memory only, used up by the next screen that shows it.
 */
let carried: Banner = null;

/** Shows this banner on the next user screen instead of the one being left. */
export function carryBanner(banner: Banner): void {
  carried = banner;
}

/**
 * Spec 4: the success and error banners of the user screens clear themselves after 3 s. With
 * `takeCarried` the screen starts with a banner carried to it, and its 3 s start when it shows.
 */
export function useAutoClearBanner({ takeCarried = false }: { takeCarried?: boolean } = {}) {
  // Read in the initializer (pure, so React may call it twice), used up once the screen is shown.
  const [banner, setBanner] = useState<Banner>(() => (takeCarried ? carried : null));
  useEffect(() => {
    if (takeCarried) carried = null;
  }, [takeCarried]);
  useEffect(() => {
    if (!banner) return;
    const timer = setTimeout(() => setBanner(null), MESSAGE_AUTO_CLEAR_MS);
    return () => clearTimeout(timer);
  }, [banner]);
  return {
    banner,
    success: (text: string) => setBanner({ tone: 'success', text }),
    error: (text: string) => setBanner({ tone: 'error', text }),
    clear: () => setBanner(null),
  };
}
