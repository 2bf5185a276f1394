import { describe, expect, it } from 'vitest';
import { kindLabel, LEDGER_KINDS } from '../../../shared/ledger-kinds.ts';
import { CTO_KIND } from '../cto/cto.service.ts';
import { DEPOSIT_KIND } from '../deposits/deposits.service.ts';
import { LEVEL_INCOME_KIND, ROI_KIND } from '../income/income.repository.ts';
import { REWARD_KIND } from '../rewards/rewards.service.ts';
import { SALARY_KIND } from '../salary/salary-run.service.ts';
import { ACTIVATION_INCOME_KIND, PLAN_PURCHASE_KIND } from '../topups/topups.service.ts';
import { TRANSFER_KIND } from '../transfers/transfers.repository.ts';
import { COMPOUND_KIND, WITHDRAWAL_FEE_KIND, WITHDRAWAL_KIND } from '../withdrawals/withdrawals.service.ts';

// Every ledger write goes through a Move (typed LedgerKind) or, for the daily income's batch insert, the
// income repository's two constants. The literal kinds written elsewhere ('adjustment' by the
// adjustments and payments, 'deposit' by payments and on-chain deposits) are checked by the same type.
const WRITTEN_BY_THE_SERVER = [
  CTO_KIND,
  DEPOSIT_KIND,
  LEVEL_INCOME_KIND,
  ROI_KIND,
  REWARD_KIND,
  SALARY_KIND,
  ACTIVATION_INCOME_KIND,
  PLAN_PURCHASE_KIND,
  TRANSFER_KIND,
  COMPOUND_KIND,
  WITHDRAWAL_FEE_KIND,
  WITHDRAWAL_KIND,
  'adjustment',
];

describe('ledger kinds the server writes', () => {
  it('are all in the shared list, each with a label in words', () => {
    for (const kind of WRITTEN_BY_THE_SERVER) {
      expect(LEDGER_KINDS, kind).toContain(kind);
      expect(kindLabel(kind), kind).not.toContain('_');
    }
    // No kind in the list is one nothing writes: the list and the writers move together.
    expect([...new Set(WRITTEN_BY_THE_SERVER)].sort()).toEqual([...LEDGER_KINDS].sort());
  });
});
