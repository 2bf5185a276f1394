import { useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useState } from 'react';
import { signOut } from '../session.ts';

export function SignOutButton({
  area,
  className = 'button',
}: {
  area: 'member' | 'admin';
  className?: string;
}) {
  const queryClient = useQueryClient();
  const navigate = useNavigate();
  const [busy, setBusy] = useState(false);
  return (
    <button
      type="button"
      className={className}
      disabled={busy}
      onClick={async () => {
        setBusy(true);
        // Local state is cleared even if the network fails; the server session then ends at expiry.
        await signOut(queryClient, area).catch(() => undefined);
        // The sign-in page then says "You're signed out" (SIGN_IN_TEXT.signedOut).
        await navigate({ to: area === 'admin' ? '/admin-login' : '/login', state: { signedOut: true } });
      }}
    >
      {busy ? 'Signing out...' : 'Sign out'}
    </button>
  );
}
