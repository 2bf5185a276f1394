import { useQuery } from '@tanstack/react-query';
import { createFileRoute } from '@tanstack/react-router';
import { WITHDRAWAL_TEXT } from '../../../shared/withdrawals.ts';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { WithdrawalPage } from '../../features/withdrawals/components/withdrawal-page.tsx';

export const Route = createFileRoute('/user/withdrawal')({ component: Withdrawal });

function Withdrawal() {
  const member = useQuery(memberSessionQuery).data?.auth;
  return (
    <div className="stack">
      <header>
        <h1>{WITHDRAWAL_TEXT.title}</h1>
        <p className="muted">{WITHDRAWAL_TEXT.intro}</p>
      </header>
      {member ? <WithdrawalPage member={{ id: member.id, email: member.email }} /> : null}
    </div>
  );
}
