import { createFileRoute, redirect } from '@tanstack/react-router';
import { requireMember } from '../../features/auth/guards.ts';

// Spec 2's /transactions/{source}: everything a member or thing (a username, a plan, `deposits`,
// `adjustments`) caused, shown as the member's list of all transactions from that source (docs/app.md).
export const Route = createFileRoute('/transactions/$source')({
  beforeLoad: async (ctx) => {
    await requireMember(ctx);
    throw redirect({
      to: '/user/transaction/$table_name',
      params: { table_name: 'all_transaction' },
      search: { source: ctx.params.source },
      replace: true,
    });
  },
});
