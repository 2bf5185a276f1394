import type { QueryClient } from '@tanstack/react-query';
import { createRouter } from '@tanstack/react-router';
import { FallbackScreen } from '../ui/fallback-screen.tsx';
import { Spinner } from '../ui/spinner.tsx';
import { routeTree } from './route-tree.gen.ts';

export function createAppRouter(queryClient: QueryClient) {
  return createRouter({
    routeTree,
    context: { queryClient },
    defaultPreload: 'intent',
    defaultErrorComponent: FallbackScreen,
    defaultPendingComponent: () => <Spinner />,
    scrollRestoration: true,
  });
}

declare module '@tanstack/react-router' {
  interface Register {
    router: ReturnType<typeof createAppRouter>;
  }
}

// What a screen hands the next one in the browser's history entry, not in the address bar: an e-mail
// in a URL would reach server logs and shared links.
declare module '@tanstack/history' {
  interface HistoryState {
    /** /login after a sign-out: say so. */
    signedOut?: boolean;
    /** /login after registering: the new member's e-mail, filled in. */
    email?: string;
  }
}
