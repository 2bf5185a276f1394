import '../deposits.css';
import { useEffect, useRef } from 'react';
import { ManualDepositForm } from './manual-deposit-form.tsx';
import { MyManualDeposits } from './my-manual-deposits.tsx';

/** Where "Report a payment you made" (/user/add-money) leads: /user/deposit-history#manual-deposit. */
const MANUAL_DEPOSIT_ANCHOR = 'manual-deposit';

/** The member's manual deposits on /user/deposit-history: the form, then the list. Loaded lazily. */
export default function ManualDepositsSection() {
  const section = useRef<HTMLDivElement>(null);
  // Loaded after the page, so the router's own scroll to the address's #anchor found nothing yet.
  useEffect(() => {
    if (window.location.hash === `#${MANUAL_DEPOSIT_ANCHOR}`) section.current?.scrollIntoView();
  }, []);
  return (
    <div className="stack" id={MANUAL_DEPOSIT_ANCHOR} ref={section}>
      <ManualDepositForm />
      <h2>Your manual deposits</h2>
      <MyManualDeposits />
    </div>
  );
}
