import { describe, expect, it } from 'vitest';
import { auditChanges, auditFieldLabel, auditSummary, auditValueText } from './audit.ts';

// The audit log as an admin reads it (issue 22, item 14): what happened in words, and only the fields
// the action changed, with their names and values as people say them.
describe('auditSummary', () => {
  it('names a block, an unblock and an activation from what the edit changed', () => {
    const edit = (before: object, after: object) => auditSummary({ action: 'user.update', before, after });
    expect(edit({ status: 'unblock' }, { status: 'block' })).toBe('Blocked member');
    expect(edit({ status: 'block' }, { status: 'unblock' })).toBe('Unblocked member');
    expect(edit({ is_active: 'inactive' }, { is_active: 'active' })).toBe('Activated member');
    expect(edit({ fullname: 'A' }, { fullname: 'B' })).toBe('Edited member');
  });

  it('names the wallet a credit or a debit moved', () => {
    expect(
      auditSummary({
        action: 'wallet.credit',
        before: { business: '0.00', working: '5.00' },
        after: { business: '500.00', working: '5.00' },
      }),
    ).toBe('Credited Active Wallet');
    expect(
      auditSummary({
        action: 'wallet.debit',
        before: { business: '1.00', working: '5.00' },
        after: { business: '1.00', working: '2.50' },
      }),
    ).toBe('Debited Income Working');
  });

  it('falls back to the action’s label, and to the stored action when it has none', () => {
    expect(auditSummary({ action: 'user.delete', before: { id: 'x' }, after: null })).toBe('Erased member');
    expect(auditSummary({ action: 'something.new', before: null, after: null })).toBe('something.new');
  });
});

describe('auditChanges', () => {
  it('lists only the fields whose value changed, with human labels', () => {
    const changes = auditChanges({
      action: 'user.deactivate',
      before: { status: 'unblock', is_active: 'inactive' },
      after: { status: 'block', is_active: 'inactive', sessions_ended: 2 },
    });
    expect(changes.map((c) => [c.label, c.before, c.after])).toEqual([
      ['Status', 'unblock', 'block'],
      ['Sessions ended', undefined, 2],
    ]);
  });

  it('calls the wallets by their names in money entries and marks amounts', () => {
    const [change] = auditChanges({
      action: 'wallet.credit',
      before: { business: '0.00', working: '0.00' },
      after: { business: '250.00', working: '0.00' },
    });
    expect(change).toEqual({
      field: 'business',
      label: 'Active Wallet',
      before: '0.00',
      after: '250.00',
      money: true,
    });
    expect(
      auditChanges({ action: 'user.update', before: { business: '0.00' }, after: { business: '1.00' } })[0]
        ?.label,
    ).toBe('Business');
  });

  it('lists nothing for an erase: the record as it was stays in the details', () => {
    expect(auditChanges({ action: 'user.delete', before: { fullname: 'A' }, after: null })).toEqual([]);
  });
});

describe('auditValueText', () => {
  it('says the flags in words and leaves other values as they are', () => {
    expect(auditValueText('status', 'block')).toBe('Blocked');
    expect(auditValueText('is_active', 'inactive')).toBe('Inactive');
    expect(auditValueText('roi_status', 'close')).toBe('Closed');
    expect(auditValueText('fullname', 'Ada')).toBe('Ada');
    expect(auditValueText('address', null)).toBe('—');
    expect(auditValueText('users', true)).toBe('Yes');
  });

  it('reads a list of level percents as a list', () => {
    expect(auditValueText('percents', ['10.00', '5.00'])).toBe('10.00, 5.00');
    expect(auditValueText('percents', [])).toBe('none');
  });
});

describe('plan and level entries', () => {
  it('say what the admin did and show the level list that changed', () => {
    const entry = {
      action: 'levels.activation',
      before: { percents: ['5.00'] },
      after: { percents: ['6.00', '2.50'] },
    };
    expect(auditSummary(entry)).toBe('Set activation income levels');
    expect(auditChanges(entry)).toEqual([
      {
        field: 'percents',
        label: 'Percents by level (level 1 first)',
        before: ['5.00'],
        after: ['6.00', '2.50'],
        money: false,
      },
    ]);
    expect(auditSummary({ action: 'plan.deactivate', before: {}, after: {} })).toBe(
      'Deactivated plan (it has investments)',
    );
    expect(auditFieldLabel('plan.update', 'min_amount')).toBe('Minimum amount');
  });
});
