import type { QueryClient } from '@tanstack/react-query';
import { createRootRouteWithContext, Link, Outlet } from '@tanstack/react-router';
import { SESSION } from '../../shared/messages.ts';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { FallbackScreen } from '../ui/fallback-screen.tsx';
import { StatusPage } from '../ui/status-page.tsx';
import { Toaster } from '../ui/toaster.tsx';

export type RouterContext = { queryClient: QueryClient };

export const Route = createRootRouteWithContext<RouterContext>()({
  component: () => (
    <>
      <a className="skip-link" href="#main">
        Skip to content
      </a>
      <Outlet />
      <Toaster />
    </>
  ),
  errorComponent: FallbackScreen,
  notFoundComponent: () => (
    <PublicLayout>
      <StatusPage code="404" title={SESSION.notFoundTitle} text={SESSION.notFoundText}>
        <Link to="/" className="button primary">
          Go to the home page
        </Link>
      </StatusPage>
    </PublicLayout>
  ),
});
