import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import {
  isTransactionTable,
  TRANSACTION_FITS,
  TRANSACTION_TABLE_LABELS,
  type TransactionFit,
  type TransactionTable,
} from '../../../../shared/transactions.ts';
import { ActivityList } from '../../../ui/activity-list.tsx';
import { Pager } from '../../../ui/pager.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { memberSessionQuery } from '../../auth/session.ts';
import { filterOf, memberTransactionsQuery } from '../api.ts';
import { TransactionFilters, type TransactionSearch, type TransactionView } from './transaction-filters.tsx';
import { TransactionRow } from './transaction-row.tsx';
import '../transactions.css';

type EmptyAction = {
  to:
    | '/user/add-money'
    | '/user/subscription'
    | '/user/direct-members'
    | '/user/transfer-form'
    | '/user/withdrawal'
    | '/user/rewards';
  label: string;
};
const ADD_MONEY: EmptyAction = { to: '/user/add-money', label: 'Add money' };
const PLANS: EmptyAction = { to: '/user/subscription', label: 'See the plans' };
const TEAM: EmptyAction = { to: '/user/direct-members', label: 'Invite someone' };
const REWARDS: EmptyAction = { to: '/user/rewards', label: 'See the rewards' };
const WITHDRAW: EmptyAction = { to: '/user/withdrawal', label: 'Withdraw' };

/** An empty list's one next step: what puts a first row in it. Adjustments are staff's, so none. */
const EMPTY_ACTIONS: Record<TransactionTable, EmptyAction | null> = {
  all_transaction: ADD_MONEY,
  deposit_transaction: ADD_MONEY,
  roi_transaction: PLANS,
  topup_transaction: PLANS,
  level_transaction: TEAM,
  activation_transaction: TEAM,
  transfer_transaction: { to: '/user/transfer-form', label: 'Send money' },
  withdrawal_transaction: WITHDRAW,
  withdrawal_fee_transaction: WITHDRAW,
  reward_transaction: REWARDS,
  salary_transaction: REWARDS,
  cto_transaction: REWARDS,
  adjustment_transaction: null,
};

/** Where a link to another list goes: same filters, first page. */
type Navigate = (to: TransactionView) => void;

/**
 * The member's transactions of one kind (`table`), narrowed by `fit`, newest first, 10 a page
 * (spec 9), with the type, status, source and search filters of GET /tr/user.
 */
export function MemberTransactions({
  table,
  fit,
  search,
  onNavigate,
}: {
  table: string;
  fit?: string;
  search: TransactionSearch;
  onNavigate: Navigate;
}) {
  const memberId = useQuery(memberSessionQuery).data?.auth.id;
  const knownFit = fit === undefined || (TRANSACTION_FITS as readonly string[]).includes(fit);
  if (!isTransactionTable(table) || !knownFit) return <UnknownList />;
  const validFit = fit as TransactionFit | undefined;
  return memberId ? (
    <TransactionList
      memberId={memberId}
      table={table}
      fit={validFit}
      search={search}
      onNavigate={onNavigate}
    />
  ) : null;
}

function UnknownList() {
  return (
    <div className="card" role="alert">
      <p>There is no such list of transactions.</p>
      <Link to="/user/transaction/$table_name" params={{ table_name: 'all_transaction' }} className="button">
        All transactions
      </Link>
    </div>
  );
}

function TransactionList({
  memberId,
  table,
  fit,
  search,
  onNavigate,
}: {
  memberId: string;
  table: TransactionTable;
  fit: TransactionFit | undefined;
  search: TransactionSearch;
  onNavigate: Navigate;
}) {
  const filter = filterOf(table, fit, search);
  const query = useQuery(memberTransactionsQuery(memberId, filter));
  const data = query.data;
  const total = data?.total ?? 0;
  const pages = Math.max(1, data?.totalPages ?? 1);
  // A narrowing by direction out or by status says what is not there; the whole list has a next step;
  // a status or source that matches nothing needs no first step.
  const emptyAction =
    (fit === undefined || fit === 'in' || fit === 'invest') && !search.status && !search.source
      ? EMPTY_ACTIONS[table]
      : null;

  return (
    <div className="stack member-transactions">
      <TransactionFilters view={{ table, fit, search }} onApply={onNavigate} />
      {query.isPending ? (
        <Spinner label="Loading transactions" />
      ) : query.error ? (
        <QueryError error={query.error} onRetry={() => query.refetch()} />
      ) : !data || data.transactions.length === 0 ? (
        <div className="stack">
          <p className="muted" data-testid="transactions-empty">
            No transactions found.
          </p>
          {emptyAction ? (
            <Link to={emptyAction.to} className="button" data-testid="transactions-empty-action">
              {emptyAction.label}
            </Link>
          ) : null}
        </div>
      ) : (
        <div className="stack" aria-busy={query.isFetching}>
          <ActivityList
            items={data.transactions}
            itemKey={(t) => t.transaction_id}
            isoOf={(t) => t.created_at}
            label={TRANSACTION_TABLE_LABELS[table]}
            className="tx-list"
            testId="member-transactions"
            itemProps={(t) => ({ 'data-transaction-id': t.transaction_id })}
          >
            {(t) => <TransactionRow t={t} />}
          </ActivityList>
          <Pager
            label="Pages of transactions"
            page={filter.page}
            pages={pages}
            total={total}
            noun={['transaction', 'transactions']}
            onPage={(page) => onNavigate({ table, fit, search: { ...search, page } })}
            testId="member-transactions-page"
          />
        </div>
      )}
      {table === 'roi_transaction' && fit !== 'invest' ? (
        <Link to="/user/transaction/roi_transaction/invest" className="button">
          The investments that earn this ROI
        </Link>
      ) : null}
    </div>
  );
}
