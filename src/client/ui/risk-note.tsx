import { RISK_DISCLAIMER } from '../../shared/messages.ts';

/** The risk disclaimer stays visible on every public and member screen. */
export function RiskNote({ className = '' }: { className?: string }) {
  return (
    <p className={`risk-note ${className}`} role="note">
      {RISK_DISCLAIMER}
    </p>
  );
}
