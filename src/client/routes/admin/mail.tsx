import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { MAIL_STATUSES } from '../../../shared/mail-statuses.ts';
import { AdminMail } from '../../features/mail/components/admin-mail.tsx';

export const Route = createFileRoute('/admin/mail')({
  // The filter is in the address: a reload, a shared link or the dashboard's line shows the same list.
  validateSearch: v.object({ status: v.fallback(v.optional(v.picklist(MAIL_STATUSES)), undefined) }),
  component: AdminMailPage,
});

function AdminMailPage() {
  const { status } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      <header>
        <h1>Mail</h1>
        <p className="muted">
          What the platform mailed and whether it went out: address, subject, status and tries, never the text
          (a reset link or code is the member’s secret). A mail the mail server refused on every try is
          failed; once the cause is fixed, send it again.
        </p>
      </header>
      <AdminMail status={status} onStatus={(next) => navigate({ search: next ? { status: next } : {} })} />
    </div>
  );
}
