import '../deposits.css';
import { ManualDepositForm } from './manual-deposit-form.tsx';
import { MyManualDeposits } from './my-manual-deposits.tsx';

/** The member's manual deposits on /user/deposit-history: the form, then the list. Loaded lazily. */
export default function ManualDepositsSection() {
  return (
    <div className="stack">
      <ManualDepositForm />
      <h2>Your manual deposits</h2>
      <MyManualDeposits />
    </div>
  );
}
