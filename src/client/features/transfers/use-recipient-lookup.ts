import { useEffect, useRef, useState } from 'react';
import { RECIPIENT_SEARCH_DELAY_MS } from '../../../shared/constants.ts';
import { WALLET_MESSAGES } from '../../../shared/wallets.ts';
import { ApiError } from '../../lib/http.ts';
import { findRecipient, isEmailLookup, type Recipient, transferErrorText } from './api.ts';

export type Lookup =
  | { state: 'idle' }
  | { state: 'searching' }
  | { state: 'found'; user: Recipient }
  | { state: 'missing'; message: string };

/**
 * Spec 9: the recipient lookup fires after a 1 s pause in typing; an answer for an older address is
 * dropped. An e-mail or a username (docs/rules.md "Transfers between members"). onFound runs once per
 * found recipient (the form adjusts its wallets to them).
 */
export function useRecipientLookup(typed: string, onFound: (user: Recipient) => void) {
  const [lookup, setLookup] = useState<Lookup>({ state: 'idle' });
  const latestEmail = useRef('');
  const found = useRef(onFound);
  found.current = onFound;

  useEffect(() => {
    const email = typed.trim().toLowerCase();
    latestEmail.current = email;
    setLookup({ state: 'idle' });
    if (!email) return;
    const timer = setTimeout(async () => {
      setLookup({ state: 'searching' });
      try {
        const user = await findRecipient(email);
        if (latestEmail.current !== email) return;
        setLookup({ state: 'found', user });
        found.current(user);
      } catch (error) {
        const message =
          error instanceof ApiError && error.status === 404
            ? isEmailLookup(email)
              ? WALLET_MESSAGES.noUserWithEmail
              : WALLET_MESSAGES.noUserWithUsername
            : transferErrorText(error);
        if (latestEmail.current === email) setLookup({ state: 'missing', message });
      }
    }, RECIPIENT_SEARCH_DELAY_MS);
    return () => clearTimeout(timer);
  }, [typed]);

  return lookup;
}
