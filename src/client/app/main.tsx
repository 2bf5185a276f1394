import './csp-nonce.ts';
import { QueryClientProvider } from '@tanstack/react-query';
import { RouterProvider } from '@tanstack/react-router';
import { StrictMode } from 'react';
import { createRoot } from 'react-dom/client';
import { clearSession, setAfterSessionCleared } from '../features/auth/session.ts';
import { setUnauthorizedHandler } from '../lib/http.ts';
import { createQueryClient, restorePersistedState } from '../lib/query-client.ts';
// Listens for the browser's install offer from the start (it can come before any screen shows).
import './pwa/install.ts';
import { registerAgain, registerServiceWorker } from './pwa/register.ts';
import { UpdatePrompt } from './pwa/update-prompt.tsx';
import { createAppRouter } from './router.tsx';
import './styles.css';

async function start() {
  const queryClient = createQueryClient();
  await restorePersistedState(queryClient);
  const router = createAppRouter(queryClient);

  // The server ended the session (expiry, block, sign-out elsewhere): forget it here and ask to sign in again.
  setUnauthorizedHandler(() => {
    const path = window.location.pathname;
    const inAdmin = path.startsWith('/admin/');
    void clearSession(queryClient);
    // A late answer after leaving the signed-in areas (signed out, now on a sign-in page): stay there.
    if (!inAdmin && !path.startsWith('/user/')) return;
    router.navigate({
      to: inAdmin ? '/admin-login' : '/login',
      search: { redirect: window.location.pathname },
    });
  });

  const root = document.getElementById('root');
  if (!root) throw new Error('missing #root');
  createRoot(root).render(
    <StrictMode>
      <QueryClientProvider client={queryClient}>
        <RouterProvider router={router} />
        <UpdatePrompt />
      </QueryClientProvider>
    </StrictMode>,
  );
}

void start();
registerServiceWorker();
setAfterSessionCleared(registerAgain);
