import { Link } from '@tanstack/react-router';
import { kindLabel } from '../../../../shared/ledger-kinds.ts';
import { formatUsd } from '../../../../shared/money.ts';
import type { Transaction } from '../../../../shared/transactions.ts';
import { badgeColour } from '../../../../shared/transfers.ts';
import { formatDateTime, formatTime, shortened } from '../../../lib/format.ts';
import { LongWordBreaks } from '../../../ui/break-points.tsx';
import { CopyButton } from '../../../ui/copy-button.tsx';

export const statusLabel = (status: string) => status.charAt(0).toUpperCase() + status.slice(1);

/** "+$12.00" into the member's accounts, "−$4.75" out of them. */
export function SignedAmount({ t }: { t: Transaction }) {
  const credit = t.direction === 'credit';
  return (
    <strong className={credit ? 'tx-in' : 'tx-out'} data-testid="tx-amount">
      {formatUsd(credit ? t.amount : `-${t.amount}`, 'always')}
    </strong>
  );
}

// A word this long with no space is machine text (a transaction hash, a payout address, a payment id):
// whole, it would widen a phone's page or wrap into a column of characters nobody reads.
const MACHINE_WORD = /^\S{25,}$/;

/** What a Copy button copies, for screen readers: several can share one row. */
function kindOf(word: string) {
  if (/^0x[0-9a-f]{64}$/i.test(word)) return 'transaction hash';
  if (/^0x[0-9a-f]{40}$/i.test(word)) return 'address';
  return 'value';
}

/** A long value shortened (start…end, its whole text in the title) with a Copy button for all of it. */
function ShortValue({ value, what }: { value: string; what: string }) {
  return (
    <span className="tx-short">
      <span className="nowrap" title={value} data-testid="tx-short">
        {shortened(value)}
      </span>
      <CopyButton text={value} label="Copy" what={what} />
    </span>
  );
}

/**
 * A description whose long machine words are shortened, each with its own Copy button: the member's
 * row on a phone and the admin's table on a laptop both stay within their width.
 */
export function TransactionDescription({ text }: { text: string }) {
  const pieces = text.split(/(\s+)/);
  return (
    <>
      {pieces.map((piece, index) =>
        MACHINE_WORD.test(piece) ? (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string, never reordered.
          <ShortValue key={index} value={piece} what={kindOf(piece)} />
        ) : (
          // biome-ignore lint/suspicious/noArrayIndexKey: the pieces of one fixed string, never reordered.
          <LongWordBreaks key={index} text={piece} />
        ),
      )}
    </>
  );
}

/**
 * One transaction on a phone: two lines (type and source, then time and status, the amount beside
 * them) that open, in place, every field the list has: amount, type, source (a link to everything
 * from it), status, date and time, description and the transaction's id.
 */
export function TransactionRow({ t }: { t: Transaction }) {
  const type = kindLabel(t.transaction_type);
  return (
    <details className="tx-row">
      <summary>
        <span className="tx-row-main">
          <span className="tx-row-title">
            <span data-testid="tx-type">{type}</span> · <span data-testid="tx-party">{t.source}</span>
          </span>
          <span className="muted">
            <span data-testid="tx-time">{formatTime(t.created_at)}</span>{' '}
            <span className={`badge ${badgeColour(t.status)}`} data-status={t.status}>
              {statusLabel(t.status)}
            </span>
          </span>
        </span>
        <SignedAmount t={t} />
      </summary>
      <dl className="facts tx-facts" aria-label="Transaction details">
        <div>
          <dt>Source</dt>
          <dd>
            <Link
              to="/transactions/$source"
              params={{ source: t.source }}
              className="tx-source-link"
              data-testid="tx-source"
            >
              {t.source}
            </Link>
          </dd>
        </div>
        <div>
          <dt>Date</dt>
          <dd data-testid="tx-date">{formatDateTime(t.created_at)}</dd>
        </div>
        <div>
          <dt>Description</dt>
          <dd data-testid="tx-description">
            {t.description ? <TransactionDescription text={t.description} /> : '—'}
          </dd>
        </div>
        <div>
          <dt>Transaction ID</dt>
          <dd>
            <ShortValue value={t.transaction_id} what="transaction ID" />
          </dd>
        </div>
      </dl>
    </details>
  );
}
