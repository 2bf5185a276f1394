import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatUsd, parseCents } from '../../../../shared/money.ts';
import type { Plan } from '../../../../shared/plans.ts';
import type { Topup } from '../../../../shared/topups.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { activePlansQuery, balanceQuery, holdsOwnTopup, topupListQuery } from '../api.ts';
import '../topups.css';
import { InvestForm } from './invest-form.tsx';
import { NOT_GUARANTEED, PlanFacts } from './plan-facts.tsx';
import { RedeemCodeForm } from './redeem-code-form.tsx';

const sumCents = (amounts: string[]) => amounts.reduce((sum, amount) => sum + (parseCents(amount) ?? 0), 0);

/** The Active Wallet's balance: what every purchase here is paid from. */
export function ActiveWalletCard() {
  const balance = useQuery(balanceQuery);
  return (
    <section className="card" aria-labelledby="active-wallet-title">
      <h2 id="active-wallet-title">Active Wallet</h2>
      {balance.isPending ? <Spinner label="Loading your balance" /> : null}
      {balance.error ? (
        <QueryError error={balance.error} onRetry={() => void balance.refetch()} className="" />
      ) : null}
      {balance.data ? (
        <p className="balance-figure" data-testid="active-wallet">
          {formatUsd(balance.data.business)}
        </p>
      ) : null}
      <p className="muted">Plans and investments are paid from it. Money you add lands in it.</p>
      <Link to="/user/add-money" className="button">
        Add money
      </Link>
    </section>
  );
}

function PlanCard({
  plan,
  open,
  onOpen,
  onClose,
  memberId,
  availableCents,
  holdsOwn,
  held,
}: {
  plan: Plan;
  open: boolean;
  onOpen: () => void;
  onClose: () => void;
  memberId: string;
  availableCents: number | undefined;
  holdsOwn: boolean;
  /** The member's own investments in this plan (bought by them or for them). */
  held: Topup[];
}) {
  const minCents = parseCents(plan.min_amount) ?? 0;
  const tooLittle = availableCents !== undefined && availableCents < minCents;
  return (
    <li className="card plan-card" data-plan={plan.name}>
      <h3>{plan.name}</h3>
      <PlanFacts plan={plan} />
      <p className="muted plan-risk">{NOT_GUARANTEED}</p>
      {held.length > 0 ? (
        // What was paid, never what might be: the member's own investments in this plan so far.
        <p data-testid="plan-held">
          {`You hold ${held.length === 1 ? 'one investment' : `${held.length} investments`} in this plan: ${formatUsd(sumCents(held.map((t) => t.amount)))} invested, ${formatUsd(sumCents(held.map((t) => t.roi_paid)))} of ROI paid so far.`}
        </p>
      ) : null}
      {tooLittle ? (
        <p data-testid="too-little">
          Your Active Wallet holds less than this plan's{' '}
          {plan.min_amount === plan.max_amount ? 'price' : 'minimum'}.{' '}
          <Link to="/user/add-money">Add money</Link> first.
        </p>
      ) : null}
      {open ? (
        <InvestForm
          plan={plan}
          memberId={memberId}
          availableCents={availableCents}
          holdsOwnTopup={holdsOwn}
          onDone={onClose}
        />
      ) : (
        <button
          type="button"
          className="button primary"
          onClick={onOpen}
          aria-label={`Invest in ${plan.name}`}
        >
          Invest
        </button>
      )}
    </li>
  );
}

/** /user/subscription: the Active Wallet, the active plans to buy from it, and "Redeem a code". */
export function SubscriptionView({ memberId }: { memberId: string }) {
  const plans = useQuery(activePlansQuery);
  const balance = useQuery(balanceQuery).data;
  const list = useQuery(topupListQuery).data;
  const [openId, setOpenId] = useState<string | null>(null);
  const availableCents = balance ? (parseCents(balance.business) ?? 0) : undefined;
  const holdsOwn = holdsOwnTopup(list, memberId);
  return (
    <>
      <ActiveWalletCard />
      <section aria-labelledby="plans-title" className="stack">
        <h2 id="plans-title">Active plans</h2>
        {plans.isPending ? <Spinner label="Loading the plans" /> : null}
        {plans.error ? <QueryError error={plans.error} onRetry={() => void plans.refetch()} /> : null}
        {plans.data?.length === 0 ? (
          <p className="card muted">No plans are open right now. Please come back later.</p>
        ) : null}
        {plans.data?.length ? (
          <ul className="plan-cards" aria-label="Active plans">
            {plans.data.map((plan) => (
              <PlanCard
                key={plan.id}
                plan={plan}
                open={openId === plan.id}
                onOpen={() => setOpenId(plan.id)}
                onClose={() => setOpenId(null)}
                memberId={memberId}
                availableCents={availableCents}
                holdsOwn={holdsOwn}
                held={list?.topups.filter((t) => t.plan_id === plan.id && t.user_id === memberId) ?? []}
              />
            ))}
          </ul>
        ) : null}
      </section>
      <RedeemCodeForm />
      <Link to="/user/topup">Invest for another member</Link>
    </>
  );
}
