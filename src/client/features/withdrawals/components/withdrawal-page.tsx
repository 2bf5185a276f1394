import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { useState } from 'react';
import { formatUsd } from '../../../../shared/money.ts';
import { NETWORK_LABELS } from '../../../../shared/profile.ts';
import { accountRefusal } from '../../../../shared/withdrawal-rules.ts';
import {
  WITHDRAWAL_KINDS,
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_TEXT,
  type WithdrawalKind,
  type WithdrawalOptions,
} from '../../../../shared/withdrawals.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { Tabs } from '../../../ui/tabs.tsx';
import { withdrawalOptionsQuery } from '../api.ts';
import { accountFactsOf, isUsable, usableNetwork } from '../figures.ts';
import '../withdrawals.css';
import { MemberRequests } from './member-requests.tsx';
import { WithdrawalForm } from './withdrawal-form.tsx';

type Member = { id: string; email: string };

/**
 * Why a kind cannot be asked for now, by the server's own rules (src/shared/withdrawal-rules.ts): a
 * verified e-mail and one open request at a time for every kind; a usable payout address for every
 * kind but compound, which pays nothing out.
 */
export function refusalOf(
  kind: WithdrawalKind,
  options: WithdrawalOptions,
  nowMs: number,
): string | undefined {
  return accountRefusal(
    kind,
    accountFactsOf(options),
    new Date(nowMs).toISOString(),
    usableNetwork(options, nowMs),
  )?.message;
}

function Summary({ options, member }: { options: WithdrawalOptions; member: Member }) {
  const now = Date.now();
  return (
    <section className="card" aria-labelledby="withdrawal-summary-title">
      <h2 id="withdrawal-summary-title">{WITHDRAWAL_TEXT.summaryTitle}</h2>
      <dl className="facts">
        <div>
          <dt>{WITHDRAWAL_TEXT.available}</dt>
          <dd className="withdrawal-available" data-testid="working-available">
            {formatUsd(options.working_available)}
          </dd>
        </div>
        <div>
          <dt>{WITHDRAWAL_TEXT.minimum}</dt>
          <dd data-testid="withdrawal-minimum">{formatUsd(options.minimum)}</dd>
        </div>
        <div>
          <dt>{WITHDRAWAL_TEXT.fee}</dt>
          <dd data-testid="withdrawal-fee-percent">{WITHDRAWAL_TEXT.feeOf(options.fee_percent)}</dd>
        </div>
      </dl>
      <h3>{WITHDRAWAL_TEXT.addressTitle}</h3>
      {options.addresses.length === 0 ? (
        <p>
          <Link to="/user/profile/$id" params={{ id: member.id }}>
            {WITHDRAWAL_TEXT.addAddress}
          </Link>
        </p>
      ) : (
        <>
          <ul className="withdrawal-addresses">
            {options.addresses.map((a) => (
              <li key={a.network} data-testid={`payout-${a.network}`}>
                <strong>{NETWORK_LABELS[a.network]}</strong>{' '}
                <span className="withdrawal-wrap" data-testid={`payout-${a.network}-address`}>
                  {a.address}
                </span>
                <br />
                <span className="muted" data-testid={`payout-${a.network}-usable`}>
                  {isUsable(a, now)
                    ? WITHDRAWAL_TEXT.usableNow
                    : WITHDRAWAL_TEXT.usableFrom(formatDateTime(a.usable_from))}
                </span>
              </li>
            ))}
          </ul>
          <Link to="/user/profile/$id" params={{ id: member.id }}>
            {WITHDRAWAL_TEXT.changeAddress}
          </Link>
        </>
      )}
      {options.email_verified ? null : (
        <p className="withdrawal-warning" data-testid="withdrawal-email-warning">
          {WITHDRAWAL_MESSAGES.emailUnverified}.{' '}
          <Link to="/user/profile/$id" params={{ id: member.id }}>
            {WITHDRAWAL_TEXT.verifyEmail}
          </Link>
        </p>
      )}
    </section>
  );
}

/** /user/withdrawal: what the member can take out, one tab per kind of request, and their requests. */
export function WithdrawalPage({ member }: { member: Member }) {
  const query = useQuery(withdrawalOptionsQuery);
  const [kind, setKind] = useState<WithdrawalKind>('income');
  const options = query.data;
  return (
    <>
      {query.isPending ? (
        <Spinner label={WITHDRAWAL_TEXT.loading} />
      ) : query.error || !options ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <Summary options={options} member={member} />
          <section className="card withdrawal-kinds" aria-labelledby="withdrawal-request-title">
            <h2 id="withdrawal-request-title">{WITHDRAWAL_TEXT.newRequest}</h2>
            <Tabs
              label={WITHDRAWAL_TEXT.kindsLabel}
              tabs={WITHDRAWAL_KINDS.map((k) => ({ key: k, label: WITHDRAWAL_TEXT.kindNames[k] }))}
              active={kind}
              onChange={setKind}
            >
              <WithdrawalForm
                key={kind}
                kind={kind}
                options={options}
                member={member}
                refusal={refusalOf(kind, options, Date.now())}
              />
            </Tabs>
          </section>
        </>
      )}
      <MemberRequests />
    </>
  );
}
