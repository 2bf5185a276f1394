import { createFileRoute, Link } from '@tanstack/react-router';
import { SESSION } from '../../shared/messages.ts';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { StatusPage } from '../ui/status-page.tsx';

export const Route = createFileRoute('/unauthorized')({ component: UnauthorizedPage });

function UnauthorizedPage() {
  return (
    <PublicLayout>
      <StatusPage code="403" title={SESSION.unauthorizedTitle} text={SESSION.unauthorizedText}>
        <Link to="/" className="button">
          Home
        </Link>
        <Link to="/user/dashboard" className="button primary">
          Member dashboard
        </Link>
      </StatusPage>
    </PublicLayout>
  );
}
