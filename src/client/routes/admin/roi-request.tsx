import { createFileRoute, redirect } from '@tanstack/react-router';
import { adminWithdrawalSearch } from '../../features/withdrawals/search.ts';

// The spec's ROI requests screen is the one withdrawal queue now (kind is its filter there): an old
// link or bookmark lands on it with the filters it carried, ROI and principal among every other kind.
export const Route = createFileRoute('/admin/roi-request')({
  validateSearch: adminWithdrawalSearch,
  beforeLoad: ({ search }) => {
    throw redirect({ to: '/admin/withdrawals', search, replace: true });
  },
});
