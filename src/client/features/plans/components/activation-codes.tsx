import { useQuery, useQueryClient } from '@tanstack/react-query';
import { type FormEvent, useEffect, useMemo, useRef, useState } from 'react';
import { COPIED_LABEL_MS } from '../../../../shared/constants.ts';
import { csvDocument } from '../../../../shared/csv.ts';
import { formatUsd } from '../../../../shared/money.ts';
import type { Plan } from '../../../../shared/plans.ts';
import {
  type ActivationCode,
  CODE_FUNDING_LABELS,
  CODE_FUNDINGS,
  type CodeFunding,
  codeBatchSchema,
  MAX_CODES_PER_BATCH,
} from '../../../../shared/topups.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { useSchemaForm } from '../../../lib/use-schema-form.ts';
import { BreakPoints } from '../../../ui/break-points.tsx';
import { type DataColumn, DataTable } from '../../../ui/data-table.tsx';
import { DateTime } from '../../../ui/date-time.tsx';
import { FormField, SelectField } from '../../../ui/form-field.tsx';
import { MessageBanner } from '../../../ui/message-banner.tsx';
import { Modal } from '../../../ui/modal.tsx';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { useAutoClearBanner } from '../../../ui/use-auto-clear.ts';
import {
  CODES_PAGE_SIZE,
  codeDetailQuery,
  codeListQuery,
  createCodes,
  planListQuery,
  refreshCodes,
} from '../api.ts';

const CSV_HEADERS = ['Code', 'Plan', 'Amount (USD)', 'Created'];

function CodeStatus({ code }: { code: ActivationCode }) {
  return code.status === 'used' ? (
    <span className="badge blue">Used</span>
  ) : (
    <span className="badge green">Unused</span>
  );
}

/** Activation codes: a batch is made for an active plan and amount; the list shows who used each and when. */
export function ActivationCodes({ page, onPage }: { page: number; onPage: (page: number) => void }) {
  const [batch, setBatch] = useState<ActivationCode[] | null>(null);
  const [openId, setOpenId] = useState<string | null>(null);
  return (
    <div className="stack">
      <CodeBatchForm onCreated={setBatch} />
      {batch ? <NewCodes codes={batch} onDone={() => setBatch(null)} /> : null}
      <CodesTable page={page} onPage={onPage} onOpen={setOpenId} />
      <CodeDetailDialog id={openId} onClose={() => setOpenId(null)} />
    </div>
  );
}

function CodeBatchForm({ onCreated }: { onCreated: (codes: ActivationCode[]) => void }) {
  const queryClient = useQueryClient();
  const plans = useQuery(planListQuery('plan'));
  const actplans = useQuery(planListQuery('activation'));
  const [planId, setPlanId] = useState('');
  const [amount, setAmount] = useState('');
  const [count, setCount] = useState('');
  const [funding, setFunding] = useState<CodeFunding>('promotional');
  const { banner, success, error } = useAutoClearBanner();
  const { errors, busy, submit: submitWith } = useSchemaForm();

  // Codes are made for active plans only (the server refuses others).
  const active = (list: Plan[] | undefined) => (list ?? []).filter((p) => p.status === 'active');
  const choices = [...active(plans.data), ...active(actplans.data)];
  const chosen = choices.find((p) => p.id === planId);

  function choose(id: string) {
    setPlanId(id);
    const plan = [...active(plans.data), ...active(actplans.data)].find((p) => p.id === id);
    // An activation plan has one price: the amount is that price.
    if (plan?.kind === 'activation') setAmount(plan.min_amount);
  }

  function submit(event: FormEvent) {
    event.preventDefault();
    const typed = count.trim();
    const body = {
      plan_id: planId,
      amount: amount.trim(),
      count: typed === '' ? Number.NaN : Number(typed),
      funding,
    };
    void submitWith(
      codeBatchSchema,
      body,
      async () => {
        const result = await createCodes(body);
        await refreshCodes(queryClient);
        onCreated(result.codes);
        setCount('');
        success(result.message);
      },
      error,
    );
  }

  const loading = plans.isPending || actplans.isPending;
  const failed = plans.error ?? actplans.error;
  return (
    <section className="card stack" aria-labelledby="code-batch-title">
      <h2 id="code-batch-title">Create activation codes</h2>
      <p className="muted">
        Each code is one investment in the chosen plan for that amount, paid by the platform when a member
        redeems it. A code works once. A promotional code's investment earns, but its principal is never paid
        out; choose paid only when the member paid for the code.
      </p>
      <MessageBanner banner={banner} />
      {loading ? (
        <Spinner label="Loading plans" />
      ) : failed ? (
        <QueryError
          error={failed}
          onRetry={() => {
            void plans.refetch();
            void actplans.refetch();
          }}
        />
      ) : (
        <form className="form columns" onSubmit={submit} noValidate aria-busy={busy}>
          <SelectField
            label="Plan"
            name="plan_id"
            value={planId}
            onChange={(e) => choose(e.target.value)}
            error={errors.plan_id}
            disabled={busy}
          >
            <option value="">Choose a plan</option>
            <optgroup label="Plans">
              {active(plans.data).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </optgroup>
            <optgroup label="Activation plans">
              {active(actplans.data).map((p) => (
                <option key={p.id} value={p.id}>
                  {p.name}
                </option>
              ))}
            </optgroup>
          </SelectField>
          <FormField
            label="Amount (USD)"
            name="amount"
            inputMode="decimal"
            autoComplete="off"
            value={amount}
            onChange={(e) => setAmount(e.target.value)}
            error={errors.amount}
            hint={
              chosen
                ? chosen.kind === 'activation'
                  ? `The plan's price: ${formatUsd(chosen.min_amount)}`
                  : `From ${formatUsd(chosen.min_amount)} to ${formatUsd(chosen.max_amount)}`
                : undefined
            }
            disabled={busy}
          />
          <FormField
            label="Number of codes"
            name="count"
            inputMode="numeric"
            autoComplete="off"
            value={count}
            onChange={(e) => setCount(e.target.value)}
            error={errors.count}
            hint={`1 to ${MAX_CODES_PER_BATCH}`}
            disabled={busy}
          />
          <SelectField
            label="Principal"
            name="funding"
            value={funding}
            onChange={(e) => setFunding(e.target.value as CodeFunding)}
            error={errors.funding}
            disabled={busy}
          >
            {CODE_FUNDINGS.map((f) => (
              <option key={f} value={f}>
                {CODE_FUNDING_LABELS[f]}
              </option>
            ))}
          </SelectField>
          <div className="form-actions span-all">
            <button type="submit" className="button primary" disabled={busy}>
              {busy ? 'Creating...' : 'Create codes'}
            </button>
          </div>
        </form>
      )}
    </section>
  );
}

/** The batch just made, shown until dismissed: copied or saved as CSV to hand out. */
function NewCodes({ codes, onDone }: { codes: ActivationCode[]; onDone: () => void }) {
  const [copied, setCopied] = useState(false);
  const [copyFailed, setCopyFailed] = useState(false);
  const timer = useRef<ReturnType<typeof setTimeout>>(undefined);
  useEffect(() => () => clearTimeout(timer.current), []);
  const first = codes[0];

  async function copy() {
    try {
      await navigator.clipboard.writeText(codes.map((c) => c.code).join('\n'));
    } catch {
      setCopyFailed(true);
      return;
    }
    setCopyFailed(false);
    setCopied(true);
    clearTimeout(timer.current);
    timer.current = setTimeout(() => setCopied(false), COPIED_LABEL_MS);
  }

  function download() {
    const body = csvDocument(
      CSV_HEADERS,
      codes.map((c) => [c.code, c.plan_name, c.amount, c.created_at]),
    );
    const url = URL.createObjectURL(new Blob([body], { type: 'text/csv;charset=utf-8' }));
    const link = document.createElement('a');
    link.href = url;
    link.download = `activation-codes-${first?.batch_id ?? 'batch'}.csv`;
    link.click();
    setTimeout(() => URL.revokeObjectURL(url), 0);
  }

  return (
    <section className="card stack" aria-labelledby="new-codes-title" data-testid="new-codes">
      <h2 id="new-codes-title">New codes</h2>
      <p>
        {codes.length} {codes.length === 1 ? 'code' : 'codes'} for {first?.plan_name}, each worth{' '}
        {first ? formatUsd(first.amount) : ''} USD. They stay in the list below.
      </p>
      <ul className="new-codes">
        {codes.map((c) => (
          <li key={c.id}>
            <code>{c.code}</code>
          </li>
        ))}
      </ul>
      <div className="form-actions">
        <button type="button" className="button" onClick={copy} aria-live="polite">
          {copied ? 'Copied!' : 'Copy codes'}
        </button>
        <button type="button" className="button" onClick={download}>
          Download CSV
        </button>
        <button type="button" className="button" onClick={onDone}>
          Done
        </button>
      </div>
      {copyFailed ? (
        <p className="field-error" role="alert">
          The codes could not be copied. Select them above and copy them by hand, or download the CSV.
        </p>
      ) : null}
    </section>
  );
}

function codeColumns(onOpen: (id: string) => void): DataColumn<ActivationCode>[] {
  return [
    {
      id: 'code',
      header: 'Code',
      cell: (c) => (
        <button type="button" className="link-button" onClick={() => onOpen(c.id)}>
          <code>{c.code}</code>
        </button>
      ),
    },
    { id: 'plan', header: 'Plan', cell: (c) => c.plan_name },
    { id: 'amount', header: 'Amount (USD)', cell: (c) => formatUsd(c.amount), className: 'num' },
    { id: 'funding', header: 'Principal', cell: (c) => (c.funding === 'paid' ? 'Paid' : 'Promotional') },
    { id: 'status', header: 'Status', cell: (c) => <CodeStatus code={c} /> },
    {
      id: 'used_by',
      header: 'Used by',
      cell: (c) =>
        c.used_by_name ? (
          <>
            {c.used_by_name}
            <br />
            <span className="muted">{c.used_by_email ? <BreakPoints text={c.used_by_email} /> : null}</span>
          </>
        ) : (
          '—'
        ),
    },
    { id: 'used_at', header: 'Used at', cell: (c) => <DateTime iso={c.used_at} /> },
  ];
}

function CodesTable({
  page,
  onPage,
  onOpen,
}: {
  page: number;
  onPage: (page: number) => void;
  onOpen: (id: string) => void;
}) {
  const query = useQuery(codeListQuery(page));
  const columns = useMemo(() => codeColumns(onOpen), [onOpen]);
  const data = query.data;
  return (
    <section className="card stack" aria-labelledby="codes-title">
      <h2 id="codes-title">Activation codes</h2>
      <DataTable
        caption="Activation codes"
        columns={columns}
        rows={data?.codes}
        rowKey={(c) => c.id}
        rowProps={(c) => ({ 'data-code': c.code })}
        status={query}
        empty="No activation codes yet."
        noun={['code', 'codes']}
        testId="codes-table"
        pageSize={CODES_PAGE_SIZE}
        server={{
          page,
          pages: data ? Math.max(1, Math.ceil(data.total / data.limit)) : 1,
          total: data?.total ?? 0,
          onPage,
        }}
      />
    </section>
  );
}

function CodeDetailDialog({ id, onClose }: { id: string | null; onClose: () => void }) {
  return (
    <Modal open={id !== null} title="Activation code" onClose={onClose}>
      {id ? <CodeDetail id={id} /> : null}
      <div className="modal-actions">
        <button type="button" className="button" onClick={onClose}>
          Close
        </button>
      </div>
    </Modal>
  );
}

function CodeDetail({ id }: { id: string }) {
  const query = useQuery(codeDetailQuery(id));
  if (query.isPending) return <Spinner label="Loading the code" />;
  if (query.error) return <QueryError error={query.error} onRetry={() => query.refetch()} />;
  const c = query.data;
  return (
    <dl className="facts" data-testid="code-detail">
      <div>
        <dt>Code</dt>
        <dd>
          <code>{c.code}</code>
        </dd>
      </div>
      <div>
        <dt>Plan</dt>
        <dd>{c.plan_name}</dd>
      </div>
      <div>
        <dt>Amount</dt>
        <dd>{formatUsd(c.amount)} USD</dd>
      </div>
      <div>
        <dt>Principal</dt>
        <dd>{CODE_FUNDING_LABELS[c.funding]}</dd>
      </div>
      <div>
        <dt>Status</dt>
        <dd>
          <CodeStatus code={c} />
        </dd>
      </div>
      <div>
        <dt>Created</dt>
        <dd>{formatDateTime(c.created_at)}</dd>
      </div>
      <div>
        <dt>Used by</dt>
        <dd>{c.used_by_name ? `${c.used_by_name} (${c.used_by_email ?? ''})` : '—'}</dd>
      </div>
      <div>
        <dt>Used at</dt>
        <dd>{formatDateTime(c.used_at)}</dd>
      </div>
      <div>
        <dt>Top-up</dt>
        <dd>{c.topup_id ?? '—'}</dd>
      </div>
    </dl>
  );
}
