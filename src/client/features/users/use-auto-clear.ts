import { useEffect, useState } from 'react';
import { MESSAGE_AUTO_CLEAR_MS } from '../../../shared/constants.ts';

export type Banner = { tone: 'success' | 'error'; text: string } | null;

/** Spec 4: the success and error banners of the user screens clear themselves after 3 s. */
export function useAutoClearBanner() {
  const [banner, setBanner] = useState<Banner>(null);
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
