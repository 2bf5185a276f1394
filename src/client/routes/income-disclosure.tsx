import { createFileRoute } from '@tanstack/react-router';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { IncomeDisclosure } from '../features/disclosure/components/income-disclosure.tsx';

// Public (issue 17 item 6): linked from the landing page's footer and the member dashboard.
export const Route = createFileRoute('/income-disclosure')({ component: IncomeDisclosurePage });

function IncomeDisclosurePage() {
  return (
    <PublicLayout>
      <IncomeDisclosure />
    </PublicLayout>
  );
}
