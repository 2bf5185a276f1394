import * as v from 'valibot';
import {
  DEFAULT_SETTINGS,
  SETTING_NAMES,
  SETTINGS_MESSAGES,
  type SettingRules,
  type Settings,
  type SettingsUpdate,
  settingRules,
  settingsUpdateSchema,
} from '../../../shared/settings.ts';
import { TWO_FACTOR } from '../../../shared/two-factor.ts';
import { withdrawalFeeCents } from '../../../shared/withdrawals.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { AppError, badRequest } from '../../http/errors.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { isTwoFactorOn } from '../two-factor/two-factor.repository.ts';
import { readSettingRows, writeSetting } from './settings.repository.ts';

// The settings admins change (API.md "Settings", shared/settings.ts), one row per changed name; a name
// without a row has its default. The rows are never cached: every server process reads the table, so a
// change takes effect on all of them at once, and the money code reads it inside the transaction that
// moves the money (readRules(trx)), so a change applies to a whole operation or not at all. Only the
// checking of rows already seen is remembered (the last rows read and the rules they make), so a
// transfer pays for one small read and not for checking every stored value again.

export async function readSettings(db: Db): Promise<Settings> {
  return settingsOf(await readSettingRows(db));
}

/** The settings from their stored rows (readSettingRows, or a statement that read them with more). */
function settingsOf(rows: { name: string; value: string }[]): Settings {
  const settings: Settings = { ...DEFAULT_SETTINGS };
  const stored: Record<string, unknown> = {};
  for (const row of rows) {
    if ((SETTING_NAMES as string[]).includes(row.name)) stored[row.name] = JSON.parse(row.value);
  }
  // A stored value that no longer passes its rule (bounds changed in a release) falls back to the default.
  for (const [name, value] of Object.entries(stored)) {
    const one = v.safeParse(settingsUpdateSchema, { [name]: value });
    if (one.success) Object.assign(settings, one.output);
  }
  return settings;
}

/** The settings as the money code uses them; call it with the transaction that moves the money. */
export async function readRules(db: Db): Promise<SettingRules> {
  return rulesOf(await readSettingRows(db));
}

/** The rows last turned into rules, as one text, and those rules. */
let lastRules: { key: string; rules: SettingRules } | undefined;

/** readRules from rows a statement of the caller read in its transaction, with more. */
export function rulesOf(rows: { name: string; value: string }[]): SettingRules {
  let key = '';
  for (const row of rows) key += `${row.name}\u0000${row.value}\u0000`;
  if (lastRules?.key === key) return lastRules.rules;
  const rules = Object.freeze(settingRules(settingsOf(rows)));
  lastRules = { key, rules };
  return rules;
}

/**
 * The withdrawal minimum and fee are one rule together: a withdrawal of the minimum must pay out at
 * least a cent after its fee (net amounts rise with the amount, so then every allowed amount does).
 * Checked on the values after the change, so either one changed alone is held to the other one stored.
 */
function refuseNetZeroWithdrawal(after: Settings): void {
  const rules = settingRules(after);
  const minimum = rules.withdrawalMinimumCents;
  if (minimum - withdrawalFeeCents('income', minimum, rules.withdrawalFeeBp) > 0) return;
  throw badRequest(
    (['withdrawal_minimum', 'withdrawal_fee_percent'] as const).map((field) => ({
      field,
      message: SETTINGS_MESSAGES.withdrawalNetsNothing,
    })),
  );
}

/** Saves the named values and writes the change to the audit log, in one transaction. */
export async function updateSettings(db: Db, admin: UserTable, input: SettingsUpdate): Promise<Settings> {
  // Nobody can be locked out: requiring two-factor sign-in needs the admin's own first.
  if (input.admin_two_factor_required === true && !(await isTwoFactorOn(db, admin.id)))
    throw new AppError(422, TWO_FACTOR.settingNeedsOwn);
  return db.transaction().execute(async (trx) => {
    const before = await readSettings(trx);
    const nowIso = new Date().toISOString();
    const changed = Object.entries(input).filter(
      ([name, value]) => value !== undefined && (before as Record<string, unknown>)[name] !== value,
    );
    for (const [name, value] of changed) await writeSetting(trx, name, JSON.stringify(value), nowIso);
    const after = { ...before, ...Object.fromEntries(changed) } as Settings;
    if (changed.some(([name]) => name === 'withdrawal_minimum' || name === 'withdrawal_fee_percent'))
      refuseNetZeroWithdrawal(after);
    if (changed.length) {
      await insertAudit(trx, {
        actorId: admin.id,
        action: 'settings.update',
        targetType: 'settings',
        targetId: 'settings',
        before: Object.fromEntries(
          changed.map(([name]) => [name, (before as Record<string, unknown>)[name]]),
        ),
        after: Object.fromEntries(changed),
      });
    }
    return after;
  });
}
