import { describe, expect, it } from 'vitest';
import { kindLabel, LEDGER_KINDS } from './ledger-kinds.ts';
import { KIND_OF_TYPE, TRANSACTION_TYPES } from './transactions.ts';

describe('kinds in words', () => {
  it('names every ledger kind in words: capitalised, no underscore, not the code itself', () => {
    for (const kind of LEDGER_KINDS) {
      const label = kindLabel(kind);
      expect(label, kind).toMatch(/^[A-Z][A-Za-z -]*$/);
      expect(label, kind).not.toBe(kind);
    }
    expect(kindLabel('withdrawal_fee')).toBe('Withdrawal fee');
    expect(kindLabel('plan_purchase')).toBe('Investment');
  });

  it('gives each transaction type the label of the ledger kind it is read from', () => {
    for (const type of TRANSACTION_TYPES) {
      expect(LEDGER_KINDS, type).toContain(KIND_OF_TYPE[type]);
      expect(kindLabel(type), type).toBe(kindLabel(KIND_OF_TYPE[type]));
    }
  });

  it('reads a kind it does not know as words rather than as a code', () => {
    expect(kindLabel('bonus_payout')).toBe('Bonus payout');
  });
});
