import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, type ReactNode, useEffect, useRef, useState } from 'react';
import * as v from 'valibot';
import { kindLabel } from '../../../../shared/ledger-kinds.ts';
import { formatUsd } from '../../../../shared/money.ts';
import { NETWORK_LABELS } from '../../../../shared/profile.ts';
import {
  WITHDRAWAL_MESSAGES,
  WITHDRAWAL_TEXT,
  type Withdrawal,
  type WithdrawalDetail,
  withdrawalDecisionSchema,
} from '../../../../shared/withdrawals.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useOffline } from '../../../lib/offline.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { BreakPoints } from '../../../ui/break-points.tsx';
import { FormField, TextAreaField } from '../../../ui/form-field.tsx';
import { MoneyOfflineNote } from '../../../ui/offline-notice.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { decideWithdrawal, refreshAfterWithdrawal, withdrawalDetailQuery } from '../api.ts';
import { accountAge } from '../figures.ts';
import { WithdrawalStatusBadge } from './status-badge.tsx';

type Choice = 'approved' | 'rejected';

/**
 * The shared decision schema, plus what each decision needs: approving a payout needs the hash of the
 * transaction that paid it (a compound pays nothing out), rejecting needs a reason for the member.
 */
const decisionSchema = (payout: boolean) =>
  v.pipe(
    withdrawalDecisionSchema,
    v.forward(
      v.check(
        (d) => d.status !== 'approved' || !payout || Boolean(d.tx_hash),
        WITHDRAWAL_MESSAGES.txHashRequired,
      ),
      ['tx_hash'],
    ),
    v.forward(
      v.check(
        (d) => d.status !== 'rejected' || (d.reason ?? '').length >= 3,
        WITHDRAWAL_MESSAGES.reasonRequired,
      ),
      ['reason'],
    ),
  );

function MoneyList({
  title,
  items,
}: {
  title: string;
  items: { amount: string; kind: string; created_at: string }[];
}) {
  return (
    <div>
      <h4>{title}</h4>
      {items.length === 0 ? (
        <p className="muted">{WITHDRAWAL_TEXT.nothingYet}</p>
      ) : (
        <ul>
          {items.map((item, index) => (
            // biome-ignore lint/suspicious/noArrayIndexKey: a fixed list of one answer, never reordered
            <li key={index}>
              {formatUsd(item.amount)} <span className="muted">{kindLabel(item.kind)}</span>{' '}
              <span className="muted">{formatDateTime(item.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
    </div>
  );
}

function Facts({ w }: { w: Withdrawal }) {
  const rows: [string, ReactNode][] = [
    [
      'Member',
      <>
        {w.fullname} <span className="muted">@{w.username}</span> <BreakPoints text={w.email} />
      </>,
    ],
    ['E-mail verified', w.email_verified ? 'Yes' : 'No'],
    ['Account age', `${accountAge(w.member_since, Date.now())} (since ${formatDateTime(w.member_since)})`],
    ['Kind', WITHDRAWAL_TEXT.kindNames[w.kind]],
    ['Amount', formatUsd(w.amount)],
    ['Fee', formatUsd(w.fee)],
    ['Net', formatUsd(w.net_amount)],
    w.kind === 'compound'
      ? ['Plan', w.plan_name ?? '—']
      : [
          'Address',
          w.address ? (
            <span className="withdrawal-wrap" key="address">
              {w.network ? `${NETWORK_LABELS[w.network as 'bep20' | 'trc20'] ?? w.network} ` : ''}
              {w.address}
            </span>
          ) : (
            '—'
          ),
        ],
    ['Created', formatDateTime(w.created_at)],
    ['Status', <WithdrawalStatusBadge key="status" status={w.status} />],
  ];
  if (w.decided_at) rows.push(['Decided', formatDateTime(w.decided_at)]);
  if (w.tx_hash)
    rows.push([
      'Transaction hash',
      <span className="withdrawal-wrap" key="tx">
        {w.tx_hash}
      </span>,
    ]);
  if (w.reason) rows.push(['Reason', w.reason]);
  return (
    <dl className="facts" data-testid="withdrawal-facts">
      {rows.map(([term, value]) => (
        <div key={term}>
          <dt>{term}</dt>
          <dd>{value}</dd>
        </div>
      ))}
    </dl>
  );
}

function MemberMoney({ member }: { member: NonNullable<WithdrawalDetail['member']> }) {
  return (
    <div data-testid="withdrawal-member-money">
      <h3>{WITHDRAWAL_TEXT.memberMoney}</h3>
      <dl className="facts">
        <div>
          <dt>{WITHDRAWAL_TEXT.depositsTotal}</dt>
          <dd data-testid="deposits-total">{formatUsd(member.deposits_total)}</dd>
        </div>
        <div>
          <dt>{WITHDRAWAL_TEXT.incomeTotal}</dt>
          <dd data-testid="income-total">{formatUsd(member.income_total)}</dd>
        </div>
        <div>
          <dt>{WITHDRAWAL_TEXT.withdrawnTotal}</dt>
          <dd data-testid="withdrawn-total">{formatUsd(member.withdrawn_total)}</dd>
        </div>
      </dl>
      <MoneyList title={WITHDRAWAL_TEXT.recentDeposits} items={member.deposits} />
      <MoneyList title={WITHDRAWAL_TEXT.recentIncome} items={member.income} />
    </div>
  );
}

function DecisionForm({ w, onDone }: { w: Withdrawal; onDone: (message: string) => void }) {
  const queryClient = useQueryClient();
  const [choice, setChoice] = useState<Choice | null>(null);
  const [txHash, setTxHash] = useState('');
  const [reason, setReason] = useState('');
  const [failure, setFailure] = useState('');
  const { errors, setErrors, busy, submit } = useSchemaForm();
  const { offline } = useOffline();
  const payout = w.kind !== 'compound';

  const pick = (next: Choice) => {
    setChoice(next);
    setErrors({});
    setFailure('');
  };

  function onSubmit(event: FormEvent) {
    event.preventDefault();
    if (!choice || offline) return;
    setFailure('');
    void submit(
      decisionSchema(payout),
      {
        status: choice,
        amount: w.amount,
        user_id: w.user_id,
        ...(choice === 'approved' && payout ? { tx_hash: txHash } : {}),
        ...(choice === 'rejected' ? { reason } : {}),
      },
      async (input) => {
        try {
          const { message } = await decideWithdrawal(w, {
            status: input.status,
            amount: w.amount,
            user_id: w.user_id,
            ...(input.tx_hash ? { tx_hash: input.tx_hash } : {}),
            ...(input.reason ? { reason: input.reason } : {}),
          });
          onDone(message);
        } finally {
          // Decided here or (a 409) by someone else meanwhile: the list and this panel should say so.
          void refreshAfterWithdrawal(queryClient);
        }
      },
      setFailure,
    );
  }

  return (
    <form
      className="form"
      onSubmit={onSubmit}
      noValidate
      aria-busy={busy}
      aria-label={WITHDRAWAL_TEXT.decide}
    >
      <h3>{WITHDRAWAL_TEXT.decide}</h3>
      <div className="row">
        <button
          type="button"
          className="button"
          aria-pressed={choice === 'approved'}
          onClick={() => pick('approved')}
          disabled={busy}
        >
          {WITHDRAWAL_TEXT.approve}
        </button>
        <button
          type="button"
          className="button"
          aria-pressed={choice === 'rejected'}
          onClick={() => pick('rejected')}
          disabled={busy}
        >
          {WITHDRAWAL_TEXT.reject}
        </button>
      </div>
      {choice === 'approved' && payout ? (
        <FormField
          label={WITHDRAWAL_TEXT.txHash}
          name="tx_hash"
          autoComplete="off"
          spellCheck={false}
          value={txHash}
          onChange={(e) => setTxHash(e.target.value)}
          error={errors.tx_hash}
          hint={`${WITHDRAWAL_TEXT.txHashHint}. Pay ${formatUsd(w.net_amount)} first.`}
          disabled={busy}
        />
      ) : null}
      {choice === 'rejected' ? (
        <TextAreaField
          label={WITHDRAWAL_TEXT.reason}
          name="reason"
          rows={3}
          maxLength={500}
          value={reason}
          onChange={(e) => setReason(e.target.value)}
          error={errors.reason}
          hint={WITHDRAWAL_TEXT.reasonHint}
          disabled={busy}
        />
      ) : null}
      {errors.amount || errors.user_id || errors.status ? (
        <p className="field-error">{errors.amount ?? errors.user_id ?? errors.status}</p>
      ) : null}
      {failure ? (
        <p className="field-error" role="alert" data-testid="decision-error">
          {failure}
        </p>
      ) : null}
      <MoneyOfflineNote />
      {choice ? (
        <button
          type="submit"
          className={`button ${choice === 'approved' ? 'primary' : 'danger'}`}
          disabled={busy || offline}
        >
          {busy
            ? WITHDRAWAL_TEXT.saving
            : choice === 'rejected'
              ? WITHDRAWAL_TEXT.confirmReject
              : payout
                ? WITHDRAWAL_TEXT.confirmApprove
                : WITHDRAWAL_TEXT.confirmApproveCompound}
        </button>
      ) : null}
    </form>
  );
}

/** One request opened from the list: its facts, the member's money in and out, and the decision. */
export function WithdrawalReview({ id, onClose }: { id: string; onClose: () => void }) {
  const query = useQuery(withdrawalDetailQuery(id));
  const [done, setDone] = useState('');
  const heading = useRef<HTMLHeadingElement>(null);
  // The panel opens above the table: the admin's focus (and a screen reader) goes to it.
  // biome-ignore lint/correctness/useExhaustiveDependencies: id is the trigger, not a value read.
  useEffect(() => {
    setDone('');
    heading.current?.focus();
  }, [id]);
  const detail = query.data;
  return (
    <section
      className="card withdrawal-detail"
      aria-labelledby="withdrawal-detail-title"
      data-testid="withdrawal-detail"
    >
      <div className="row">
        <h2 id="withdrawal-detail-title" ref={heading} tabIndex={-1}>
          {WITHDRAWAL_TEXT.detailTitle}
        </h2>
        <button type="button" className="button small" onClick={onClose}>
          {WITHDRAWAL_TEXT.close}
        </button>
      </div>
      {done ? (
        <p className="notice" role="status" data-testid="decision-done">
          {done}
        </p>
      ) : null}
      {query.isPending ? (
        <Spinner label="Loading the request" />
      ) : query.error || !detail ? (
        <QueryError error={query.error} onRetry={() => void query.refetch()} />
      ) : (
        <>
          <Facts w={detail.withdrawal} />
          {detail.member ? <MemberMoney member={detail.member} /> : null}
          {detail.withdrawal.status === 'pending' ? (
            <DecisionForm key={detail.withdrawal.id} w={detail.withdrawal} onDone={setDone} />
          ) : null}
        </>
      )}
    </section>
  );
}
