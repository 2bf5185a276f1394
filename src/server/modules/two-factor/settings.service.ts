import {
  DEFAULT_SETTINGS,
  type Settings,
  type SettingsUpdate,
  TWO_FACTOR,
} from '../../../shared/two-factor.ts';
import type { Db } from '../../db/database.ts';
import type { UserTable } from '../../db/schema.ts';
import { AppError } from '../../http/errors.ts';
import { insertAudit } from '../audit/audit.repository.ts';
import { isTwoFactorOn, readSettingRows, writeSetting } from './two-factor.repository.ts';

// The settings admins change (API.md "Settings"), one row per name with its value as JSON; a name
// without a row has its default. Only names of shared/two-factor.ts settingsSchema are ever written:
// PUT /settings validates the body with the strict schema first.

export async function readSettings(db: Db): Promise<Settings> {
  const settings: Settings = { ...DEFAULT_SETTINGS };
  for (const row of await readSettingRows(db)) {
    if (row.name in settings) (settings as Record<string, unknown>)[row.name] = JSON.parse(row.value);
  }
  return settings;
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
