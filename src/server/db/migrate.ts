import { type Migration, Migrator } from 'kysely';
import type { Db } from './database.ts';
import * as accounts from './migrations/0001-accounts.ts';
import * as ledger from './migrations/0002-ledger.ts';
import * as transfers from './migrations/0003-transfers.ts';
import * as payments from './migrations/0004-payments.ts';
import * as notifications from './migrations/0005-notifications.ts';
import * as tickets from './migrations/0006-tickets.ts';
import * as memberAdmin from './migrations/0007-member-admin.ts';
import * as transferStatement from './migrations/0008-transfer-statement.ts';
import * as push from './migrations/0009-push.ts';
import * as notificationLinks from './migrations/0010-notification-links.ts';
import * as mailAndAccountCodes from './migrations/0011-mail-and-account-codes.ts';
import * as profileAddresses from './migrations/0012-profile-addresses.ts';
import * as twoFactor from './migrations/0013-two-factor.ts';
import * as plansAndTopups from './migrations/0014-plans-and-topups.ts';
import * as dailyIncome from './migrations/0015-daily-income.ts';
import * as withdrawals from './migrations/0016-withdrawals.ts';
import * as manualDeposits from './migrations/0017-manual-deposits.ts';
import * as rewards from './migrations/0018-rewards.ts';
import * as cto from './migrations/0019-cto.ts';
import * as achievers from './migrations/0020-achievers.ts';
import * as salary from './migrations/0021-salary.ts';
import * as teamIndex from './migrations/0022-team-index.ts';
import * as selfTrade from './migrations/0023-self-trade.ts';
import * as teamTotals from './migrations/0024-team-totals.ts';
import * as web3Deposits from './migrations/0025-web3-deposits.ts';
import * as rankExclusions from './migrations/0026-rank-exclusions.ts';
import * as web3Wallets from './migrations/0027-web3-wallets.ts';
import * as newsAndQrLinks from './migrations/0028-news-and-qr-links.ts';
import * as investmentCap from './migrations/0029-investment-cap.ts';
import * as reportIndexes from './migrations/0030-report-indexes.ts';
import * as chainCredits from './migrations/0031-chain-credits.ts';
import * as incomeRunPercents from './migrations/0032-income-run-percents.ts';
import * as principalRules from './migrations/0033-principal-rules.ts';
import * as sessionIdle from './migrations/0034-session-idle.ts';
import * as liveMarksGone from './migrations/0035-live-marks-gone.ts';

// Migrations are listed here, in order, rather than read from disk, so they run the same from any working directory.
const migrations: Record<string, Migration> = {
  '0001-accounts': accounts,
  '0002-ledger': ledger,
  '0003-transfers': transfers,
  '0004-payments': payments,
  '0005-notifications': notifications,
  '0006-tickets': tickets,
  '0007-member-admin': memberAdmin,
  '0008-transfer-statement': transferStatement,
  '0009-push': push,
  '0010-notification-links': notificationLinks,
  '0011-mail-and-account-codes': mailAndAccountCodes,
  '0012-profile-addresses': profileAddresses,
  '0013-two-factor': twoFactor,
  '0014-plans-and-topups': plansAndTopups,
  '0015-daily-income': dailyIncome,
  '0016-withdrawals': withdrawals,
  '0017-manual-deposits': manualDeposits,
  '0018-rewards': rewards,
  '0019-cto': cto,
  '0020-achievers': achievers,
  '0021-salary': salary,
  '0022-team-index': teamIndex,
  '0023-self-trade': selfTrade,
  '0024-team-totals': teamTotals,
  '0025-web3-deposits': web3Deposits,
  '0026-rank-exclusions': rankExclusions,
  '0027-web3-wallets': web3Wallets,
  '0028-news-and-qr-links': newsAndQrLinks,
  '0029-investment-cap': investmentCap,
  '0030-report-indexes': reportIndexes,
  '0031-chain-credits': chainCredits,
  '0032-income-run-percents': incomeRunPercents,
  '0033-principal-rules': principalRules,
  '0034-session-idle': sessionIdle,
  '0035-live-marks-gone': liveMarksGone,
};

/**
 * On PostgreSQL with a schema of its own (DATABASE_SCHEMA), the migration tables live in that schema,
 * and the migrator looks for them there only (postgres-dialect.ts): another schema's are not its own.
 */
export async function migrateToLatest(db: Db, schema?: string): Promise<void> {
  const migrator = new Migrator({
    db,
    provider: { getMigrations: async () => migrations },
    ...(schema ? { migrationTableSchema: schema } : {}),
  });
  const { error, results } = await migrator.migrateToLatest();
  const failed = results?.find((r) => r.status === 'Error');
  if (error || failed) {
    throw new Error(`migration ${failed?.migrationName ?? ''} failed: ${String(error)}`, { cause: error });
  }
}
