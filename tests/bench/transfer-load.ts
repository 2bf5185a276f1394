import { randomUUID } from 'node:crypto';
import type { fundedMember } from '../helpers/client.ts';
import { adminOn } from '../helpers/server-process.ts';
import { transferBody, transferHeaders } from './harness.ts';
import { httpSender, type OpenLoopResult } from './open-loop.ts';

// The open-loop transfer load of the restart benches (restart.bench.ts, rolling.bench.ts), and the
// check of the books each run ends with.

export type Member = Awaited<ReturnType<typeof fundedMember>>;

/** Transfers of 0.01, sender n to sender n+1, each with a new Idempotency-Key, as the app sends them. */
export function transferSender(url: string, members: Member[]) {
  const parts = members.map((m, i) => ({
    headers: transferHeaders(m.client),
    body: transferBody(members[(i + 1) % members.length]?.auth.id as string),
  }));
  return httpSender({
    url: `${url}/api/v1/transfer/touser`,
    request: (index) => {
      const part = parts[index % parts.length] as (typeof parts)[number];
      return {
        headers: { ...part.headers, 'idempotency-key': `restart-bench-${randomUUID()}` },
        body: part.body,
      };
    },
  });
}

/**
 * After each run: every 201 so far is a transfer in the ledger and nothing more (the members make no
 * other transfers; a retried request is one transfer), and the books reconcile. Counts the 201s of
 * the runs on one database.
 */
export function bookKeeper() {
  let answeredSoFar = 0;
  return async (url: string, result: OpenLoopResult): Promise<string> => {
    answeredSoFar += result.statuses['201'] ?? 0;
    const admin = await adminOn(url);
    const listed = await admin.get('/transfer/list?limit=1');
    const books = await admin.get('/ledger/reconciliation');
    const total = Number(listed.body?.total);
    const consistent = total === answeredSoFar && books.body?.balanced === true;
    const failures = Object.entries(result.statuses).filter(([s]) => s !== '201');
    return `${consistent ? 'checked' : 'MISMATCH'}: ${answeredSoFar} answered 201 so far, ${total} transfers in the ledger, reconciliation ${books.body?.balanced ? 'balanced' : JSON.stringify(books.body)}${failures.length || result.errors ? `; other answers ${JSON.stringify(Object.fromEntries(failures))}, ${result.errors} errors` : ''}`;
  };
}
