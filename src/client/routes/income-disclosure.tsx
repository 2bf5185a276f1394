import { createFileRoute } from '@tanstack/react-router';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { IncomeDisclosure } from '../features/disclosure/components/income-disclosure.tsx';

// Public: linked from the landing page's footer. Members read it inside the app (user/income-disclosure.tsx).
export const Route = createFileRoute('/income-disclosure')({ component: IncomeDisclosurePage });

function IncomeDisclosurePage() {
  return (
    <PublicLayout>
      <IncomeDisclosure />
    </PublicLayout>
  );
}
