import { useQuery } from '@tanstack/react-query';
import { createFileRoute, Link } from '@tanstack/react-router';
import * as v from 'valibot';
import { memberSessionQuery } from '../../features/auth/session.ts';
import { CryptoPaymentPage } from '../../features/payments/components/crypto-payment-page.tsx';

/** A plain number stays a plain number in the address (?payment=123, not ?payment="123"). */
const inAddress = (paymentId: string) => (/^[1-9]\d{0,14}$/.test(paymentId) ? Number(paymentId) : paymentId);

export const Route = createFileRoute('/user/scanner')({
  // The router reads "?payment=123" as a number, and writes a number back as plain digits.
  validateSearch: v.object({ payment: v.fallback(v.optional(v.union([v.string(), v.number()])), undefined) }),
  component: ScannerPage,
});

function ScannerPage() {
  const memberId = useQuery(memberSessionQuery).data?.auth.id;
  const { payment } = Route.useSearch();
  const navigate = Route.useNavigate();
  return (
    <div className="stack">
      {memberId ? (
        <CryptoPaymentPage
          memberId={memberId}
          paymentId={payment === undefined || payment === '' ? undefined : String(payment)}
          onShow={(next) => navigate({ search: next ? { payment: inAddress(next) } : {} })}
        />
      ) : null}
      <Link to="/user/deposit-history" className="button">
        Deposit history
      </Link>
    </div>
  );
}
