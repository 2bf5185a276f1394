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
