import { WEB3_BADGE, WEB3_STATUS_LABELS, type Web3Deposit } from '../../../../shared/web3.ts';

/** The status, with "n of 12" while confirming. */
export function Web3StatusBadge({
  deposit,
}: {
  deposit: Pick<Web3Deposit, 'status' | 'confirmations' | 'required_confirmations'>;
}) {
  const label =
    deposit.status === 'confirming'
      ? `Confirming ${deposit.confirmations} of ${deposit.required_confirmations}`
      : WEB3_STATUS_LABELS[deposit.status];
  return (
    <span className={`badge ${WEB3_BADGE[deposit.status]}`} data-status={deposit.status}>
      {label}
    </span>
  );
}
