import { createFileRoute } from '@tanstack/react-router';
import { MemberIncome } from '../../features/income/components/member-income.tsx';
import { RiskNote } from '../../ui/risk-note.tsx';

export const Route = createFileRoute('/user/income')({ component: IncomePage });

function IncomePage() {
  return (
    <div className="stack">
      <header>
        <h1>Income</h1>
        <p className="muted">ROI, activation and level income paid into your Income Working wallet.</p>
      </header>
      <RiskNote className="compact" />
      <MemberIncome />
    </div>
  );
}
