import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { MailResendResult, OutboxMail } from '../../../shared/mail.ts';
import { api } from '../../lib/http.ts';

// The mail outbox as admins see it (docs/rules.md "Mail"): address, subject, status and tries, never
// the text. Not under the ['admin'] key: that one is the persisted admin session.

type MailStatus = OutboxMail['status'];

/** While the list shows a mail still waiting to go out, it asks again this often to show it sent. */
export const OUTBOX_FOLLOW_MS = 3000;

export const outboxQuery = (status: MailStatus | undefined) =>
  queryOptions({
    queryKey: ['mail', 'outbox', { status: status ?? null }],
    queryFn: () =>
      api<{ mails: OutboxMail[] }>('GET', `/admin/mail/outbox${status ? `?status=${status}` : ''}`),
    staleTime: 0,
    refetchInterval: (query) =>
      query.state.data?.mails.some((mail) => mail.status === 'pending') ? OUTBOX_FOLLOW_MS : false,
  });

export const resendMail = (id: string) =>
  api<MailResendResult>('POST', `/admin/mail/${encodeURIComponent(id)}/resend`);

/** After a resend: every outbox list, and the dashboard's counts of failed and retrying mails. */
export async function refreshAfterResend(queryClient: QueryClient): Promise<void> {
  await Promise.all(
    [['mail'], ['needs-action']].map((queryKey) => queryClient.invalidateQueries({ queryKey })),
  );
}
