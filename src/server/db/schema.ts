// Table types. Times are ISO 8601 UTC strings in both dialects, so the same code path compares them;
// amounts are integer cents; flags that SQLite lacks are 0/1 integers.

export type UserTable = {
  id: string;
  username: string;
  email: string;
  password_hash: string;
  role: 'user' | 'admin';
  status: 'unblock' | 'block';
  is_active: 'active' | 'inactive';
  roi_status: 'open' | 'close';
  level_status: 'open' | 'close';
  address: string | null;
  business_cents: number;
  business_balance_cents: number;
  fullname: string;
  phone: string;
  /** The sponsor's referral code, as the member typed it (spec: reffer_by). */
  reffer_by: string | null;
  sponsor_id: string | null;
  refferal_code: string;
  last_login: string | null;
  created_at: string;
  verify_at: string | null;
  updated_at: string;
  activation_date: string | null;
  paid_member: number;
  level_month: number;
  roi_day: number;
  total_team: number;
  bep20: string | null;
  trc20: string | null;
  /** The market pair the member trades themselves (shared/trade.ts), e.g. BTCUSDT; null until chosen. */
  self_trade_pair: string | null;
  self_trade_updated_at: string | null;
};

/**
 * Every column of users, by name: the session's look-up, on every signed-in call, lists them instead of
 * `users.*`, so PostgreSQL prepares it once per connection (a `*` is sent unprepared, database.ts).
 */
export const USER_COLUMNS = [
  'id',
  'username',
  'email',
  'password_hash',
  'role',
  'status',
  'is_active',
  'roi_status',
  'level_status',
  'address',
  'business_cents',
  'business_balance_cents',
  'fullname',
  'phone',
  'reffer_by',
  'sponsor_id',
  'refferal_code',
  'last_login',
  'created_at',
  'verify_at',
  'updated_at',
  'activation_date',
  'paid_member',
  'level_month',
  'roi_day',
  'total_team',
  'bep20',
  'trc20',
  'self_trade_pair',
  'self_trade_updated_at',
] as const satisfies readonly (keyof UserTable)[];

/** Does not compile while UserTable has a column USER_COLUMNS lacks. */
export const USER_COLUMNS_COMPLETE: [Exclude<keyof UserTable, (typeof USER_COLUMNS)[number]>] extends [never]
  ? true
  : never = true;

export type SessionTable = {
  /** sha256 of the cookie's token: a stolen database does not yield live cookies. */
  id: string;
  user_id: string;
  role: 'user' | 'admin';
  created_at: string;
  expires_at: string;
  ip: string | null;
  user_agent: string | null;
  /** When a call last used it, written at most once a minute (docs/rules.md "Settings"). */
  last_seen_at: string;
  /** The idle timeout in force at sign-in: unused for longer, the session is over. */
  idle_seconds: number;
};

export type RateLimitTable = {
  key: string;
  hits: number;
  reset_at_ms: number;
};

export type AppSecretTable = {
  name: string;
  value: string;
  created_at: string;
};

export type LedgerAccountTable = {
  id: string;
  /** null for the platform's own accounts. */
  user_id: string | null;
  /** 'business' | 'working' for members; 'platform:<purpose>' for the platform. */
  code: string;
  balance_cents: number;
  held_cents: number;
  allow_negative: number;
  created_at: string;
};

export type LedgerTransferTable = {
  id: string;
  debit_account_id: string;
  credit_account_id: string;
  amount_cents: number;
  phase: 'single' | 'pending' | 'post' | 'void';
  pending_id: string | null;
  kind: string;
  reference: string | null;
  description: string | null;
  created_by: string | null;
  created_at: string;
};

export type IdempotencyKeyTable = {
  owner_id: string;
  key: string;
  request_hash: string;
  status_code: number;
  response_body: string;
  created_at: string;
};

export type AuditLogTable = {
  id: string;
  actor_id: string;
  action: string;
  target_type: string;
  target_id: string;
  before_json: string | null;
  after_json: string | null;
  reason: string | null;
  created_at: string;
};

export type TransferDailyTotalTable = {
  user_id: string;
  /** YYYY-MM-DD, UTC. */
  day: string;
  amount_cents: number;
};

export type CryptoPaymentTable = {
  /** Our order id. */
  id: string;
  user_id: string;
  provider: string;
  provider_payment_id: string;
  pay_address: string;
  price_amount_cents: number;
  price_currency: string;
  pay_currency: string;
  /** The provider's decimal strings (crypto amounts are never turned into cents). */
  pay_amount: string;
  actually_paid: string | null;
  payment_status: string;
  status_rank: number;
  created_at: string;
  updated_at: string;
  expires_at: string | null;
};

export type PaymentCreditTable = {
  provider: string;
  provider_payment_id: string;
  ledger_transfer_id: string;
  amount_cents: number;
  method: 'automatic' | 'manual';
  created_by: string | null;
  created_at: string;
};

export type SandboxPaymentTable = {
  id: string;
  order_id: string;
  pay_address: string;
  price_amount: string;
  price_currency: string;
  pay_currency: string;
  pay_amount: string;
  paid_amount: string | null;
  paid_at: string | null;
  created_at: string;
  expires_at: string;
};

export type TicketTable = {
  /** The ticket's public id (spec 3 ticket_id), e.g. "T-7K2M9QXA". */
  ticket_id: string;
  user_id: string;
  subject: string;
  category: string;
  message: string;
  /** The uploads module's generated name, or null. */
  image: string | null;
  status: 'open' | 'in_progress' | 'resolved' | 'closed';
  last_reply_by: 'user' | 'admin';
  last_reply_at: string;
  created_at: string;
  updated_at: string;
};

export type TicketResponseTable = {
  id: string;
  ticket_id: string;
  author_id: string;
  author_role: 'user' | 'admin';
  message: string;
  image: string | null;
  created_at: string;
};

export type NotificationTable = {
  id: string;
  title: string;
  message: string;
  /** 1: every member registered when it was sent; 0: the members in notification_recipients. */
  users: number;
  type: 'notification' | 'site_popup';
  created_by: string | null;
  created_at: string;
  /** A path under /user/ that the notification opens; null for a broadcast (migration 0010). */
  link: string | null;
  /** 'broadcast': an admin's (POST /notifications); 'system': one the app sends a member by itself. */
  origin: 'broadcast' | 'system';
};

export type NotificationRecipientTable = {
  notification_id: string;
  user_id: string;
  seen_at: string | null;
};

export type UploadTable = {
  name: string;
  owner_id: string;
  purpose: 'banner' | 'ticket' | 'deposit' | 'achiever' | 'news';
  content_type: string;
  size_bytes: number;
  width: number;
  height: number;
  created_at: string;
};

export type PushSubscriptionTable = {
  id: string;
  user_id: string;
  endpoint: string;
  p256dh: string;
  auth: string;
  user_agent: string | null;
  created_at: string;
};

/** Issue 14: a mail waiting for, or done with, the SMTP worker. */
export type MailOutboxTable = {
  id: string;
  to_address: string;
  subject: string;
  text_body: string;
  html_body: string;
  status: 'pending' | 'sent' | 'failed';
  attempts: number;
  /** When a pending mail is next due; a claim moves it forward (the lease). */
  next_attempt_at: string;
  last_error: string | null;
  created_at: string;
  sent_at: string | null;
};

export type PasswordResetTable = {
  token_hash: string;
  user_id: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

export type EmailCodeTable = {
  user_id: string;
  purpose: string;
  code_hash: string;
  wrong_tries: number;
  expires_at: string;
  created_at: string;
  /** Set by the call the code guarded; a used code stays until a new one replaces it. */
  used_at: string | null;
};

/** When a member's payout address was last set, by whom, and from when withdrawals may use it. */
export type PayoutAddressChangeTable = {
  user_id: string;
  network: 'bep20' | 'trc20';
  changed_at: string;
  /** The member's or the admin's user id. */
  changed_by: string;
  changed_by_role: 'member' | 'admin';
  usable_from: string;
};

/** Issue 14: a person's TOTP secret (encrypted), live or being set up. */
export type TwoFactorTable = {
  user_id: string;
  secret_enc: string | null;
  pending_secret_enc: string | null;
  /** The last time step a code was accepted for (bigint: PostgreSQL may answer it as a string). */
  last_step: number | string;
  enabled_at: string | null;
  updated_at: string;
};

export type TwoFactorRecoveryCodeTable = {
  code_hash: string;
  user_id: string;
  used_at: string | null;
  created_at: string;
};

export type TwoFactorChallengeTable = {
  token_hash: string;
  user_id: string;
  role: 'user' | 'admin';
  wrong_tries: number;
  expires_at: string;
  created_at: string;
};

export type SettingTable = {
  name: string;
  /** JSON text. */
  value: string;
  updated_at: string;
};

/** Issue 15: a plan or an activation plan (a fixed-price package: min = max). */
export type PlanTable = {
  id: string;
  kind: 'plan' | 'activation';
  name: string;
  min_amount_cents: number;
  max_amount_cents: number;
  /** Daily ROI in basis points: 1.00 % = 100. */
  roi_bp: number;
  duration_days: number;
  status: 'active' | 'inactive';
  created_at: string;
  updated_at: string;
};

export type LevelPercentTable = {
  kind: 'activation' | 'roi';
  level: number;
  percent_bp: number;
};

/** One investment; the plan's ROI rate and duration are copied at purchase for the daily income run. */
export type TopupTable = {
  id: string;
  /** The beneficiary, who owns the investment. */
  user_id: string;
  /** The member who paid. */
  userby_id: string | null;
  plan_id: string;
  type: 'topup' | 'retopup' | 'entry' | 'code';
  amount_cents: number;
  roi_bp: number;
  duration_days: number;
  roi_paid_cents: number;
  roi_days_paid: number;
  /** The most ROI it may earn: its amount x the income cap in force when it was bought (0029). */
  roi_cap_cents: number;
  status: 'active' | 'completed';
  ledger_transfer_id: string;
  created_at: string;
  /** The last UTC date this investment earns ROI: its purchase date + duration - 1 (YYYY-MM-DD). */
  roi_end_date: string;
};

/** Issue 17: one rung of the reward ladder. */
export type RewardPlanTable = {
  id: string;
  rank: string;
  business_needed_cents: number;
  amount_cents: number;
  created_at: string;
  updated_at: string;
};

/** A member's claim of one reward, once; its id is the paying ledger transfer's. */
export type RewardClaimTable = {
  id: string;
  user_id: string;
  reward_id: string;
  rank: string;
  amount_cents: number;
  team_business_cents: number;
  created_at: string;
};

/** Issue 17: one month's CTO payment; the month is its key. */
export type CtoPaymentTable = {
  month: string;
  deposits_cents: number;
  share_bp: number;
  pool_cents: number;
  members: number;
  per_member_cents: number;
  paid_by: string;
  paid_at: string;
};

/** One member's CTO share of a month; its id is the paying ledger transfer's. */
export type CtoPayoutTable = {
  id: string;
  month: string;
  user_id: string;
  rank: string;
  amount_cents: number;
  created_at: string;
};

/** Issue 17: one monthly salary tier an admin keeps. */
export type SalaryTierTable = {
  id: string;
  name: string;
  min_business_cents: number;
  min_active_directs: number;
  amount_cents: number;
  created_at: string;
  updated_at: string;
};

/** One member's salary of one month, once (unique per member and month); its id is the ledger transfer's. */
/** One row per user: their own investments and their team's figures, kept with every sign-up and investment (0024). */
export type TeamTotalsTable = {
  user_id: string;
  invested_cents: number;
  team_size: number;
  team_business_cents: number;
  direct_count: number;
};

export type SalaryPaymentTable = {
  id: string;
  user_id: string;
  month: string;
  tier_id: string;
  tier_name: string;
  amount_cents: number;
  new_business_cents: number;
  active_directs: number;
  trigger: 'schedule' | 'admin';
  created_at: string;
};

/** A month's salary run: the scheduler's bookkeeping (which months are done, a run whose server died). */
export type SalaryRunTable = {
  month: string;
  status: 'running' | 'completed' | 'failed';
  trigger: 'schedule' | 'admin';
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
  lease_until_ms: number;
  attempts: number;
  members_paid: number;
  total_cents: number;
  error: string | null;
};

/** Issue 17: one picture of the achievers gallery an admin keeps. */
export type RankExclusionScope = 'leadership' | 'cto';
/** An admin's exclusion of a member from the leadership list or the CTO (0026); unique per (user_id, scope). */
export type RankExclusionTable = {
  user_id: string;
  scope: RankExclusionScope;
  reason: string | null;
  created_by: string;
  created_at: string;
};
export type AchieverTable = {
  id: string;
  name: string;
  rank: string;
  /** The stored upload's name (purpose 'achiever'). */
  image: string;
  created_by: string;
  created_at: string;
};

/** Issue 19: one news item (0028); published_at null is a draft only admins see. */
export type NewsTable = {
  id: string;
  title: string;
  body: string;
  /** The stored upload's name (purpose 'news'), or none. */
  image: string | null;
  published_at: string | null;
  created_by: string;
  created_at: string;
  updated_at: string;
};

/** Issue 19: a QR code members see where they deposit (0028): an https link or a wallet address. */
export type QrLinkTable = {
  id: string;
  label: string;
  value: string;
  created_by: string;
  created_at: string;
  updated_at: string;
};

/** Issue 16: one withdrawal request and the ledger holds that carry its money. */
export type WithdrawalTable = {
  id: string;
  user_id: string;
  kind: 'income' | 'roi' | 'principal' | 'compound';
  amount_cents: number;
  fee_cents: number;
  net_amount_cents: number;
  network: string | null;
  address: string | null;
  /** The investment of a roi or principal request. */
  topup_id: string | null;
  /** The plan of a compound request's new investment. */
  plan_id: string | null;
  status: 'pending' | 'approved' | 'rejected' | 'cancelled';
  /** The ledger's pending transfer of the net amount; null for a payout an admin recorded (debit). */
  hold_id: string | null;
  fee_hold_id: string | null;
  tx_hash: string | null;
  reason: string | null;
  created_at: string;
  decided_at: string | null;
  decided_by: string | null;
};

/** One activation income payment: unique per (top-up, earner, level). */
export type ActivationIncomeTable = {
  id: string;
  topup_id: string;
  user_id: string;
  level: number;
  percent_bp: number;
  amount_cents: number;
  ledger_transfer_id: string;
  created_at: string;
};

/** An activation code: one investment in a plan and amount, paid by the platform, redeemed once. */
export type ActivationCodeTable = {
  id: string;
  code: string;
  batch_id: string;
  plan_id: string;
  amount_cents: number;
  created_by: string;
  created_at: string;
  used_by: string | null;
  used_at: string | null;
  topup_id: string | null;
  /** Migration 0033: a promotional code's principal is never paid out; a paid one's is. */
  funding: 'promotional' | 'paid';
};

/** One daily income run per UTC date; its row is the date's lock (RULES.md "Daily income"). */
export type IncomeRunTable = {
  run_date: string;
  status: 'running' | 'completed' | 'failed';
  trigger: 'schedule' | 'admin';
  started_by: string | null;
  started_at: string;
  finished_at: string | null;
  /** The process paying the date now; a run whose lease ran out (its server died) may be taken over. */
  lease_owner: string | null;
  lease_until_ms: number;
  attempts: number;
  investments_paid: number;
  roi_total_cents: number;
  level_total_cents: number;
  level_payments: number;
  duration_ms: number;
  error: string | null;
  /**
   * 1 once a completed run started after its date ended (UTC, plus a minute); 0 while the date may gain
   * investments, so a later run of it pays what is still unpaid.
   */
  final: number;
  /** The ROI level list the date is paid with (JSON, basis points, level 1 first), kept by its first run. */
  level_percents: string | null;
};

/** One ROI payment: unique per (investment, date); its id is also its ledger transfer's. */
export type RoiPaymentTable = {
  id: string;
  topup_id: string;
  user_id: string;
  run_date: string;
  amount_cents: number;
  created_at: string;
};

/** One level income payment: unique per (ROI payment, earner, level); its id is also its ledger transfer's. */
export type LevelIncomeTable = {
  id: string;
  roi_payment_id: string;
  /** The member whose ROI it is. */
  source_user_id: string;
  user_id: string;
  level: number;
  percent_bp: number;
  amount_cents: number;
  run_date: string;
  created_at: string;
};

/** Issue 16: a manual deposit a member sent (amount, transaction hash, screenshot), decided once by an admin. */
export type ManualDepositTable = {
  id: string;
  user_id: string;
  amount_cents: number;
  /** 0x and 64 hex digits, lower case; live (pending or approved) in one deposit only. */
  tx_hash: string;
  /** The uploads module's generated name of the screenshot, or null. */
  image: string | null;
  status: 'pending' | 'approved' | 'rejected' | 'cancelled';
  /** Why an admin rejected it (shown to the member). */
  reason: string | null;
  /** The ledger credit of an approved deposit. */
  ledger_transfer_id: string | null;
  decided_by: string | null;
  decided_at: string | null;
  created_at: string;
};

export type Web3DepositTable = {
  id: string;
  user_id: string;
  chain_id: number;
  /** 0x and 64 hex digits, lower case; unique with chain_id. */
  tx_hash: string;
  /** From the chain's Transfer log(s) to the deposit address, or an admin's approval; null until known. */
  amount_cents: number | null;
  status: 'pending' | 'confirming' | 'credited' | 'rejected' | 'awaiting_admin';
  confirmations: number;
  from_address: string | null;
  to_address: string | null;
  block_number: number | string | null;
  /** Why it was rejected (shown to the member), or an admin's note. */
  reason: string | null;
  ledger_transfer_id: string | null;
  reviewed_by: string | null;
  reviewed_at: string | null;
  credited_at: string | null;
  /** When the chain was last read for it. */
  checked_at: string | null;
  created_at: string;
  updated_at: string;
};

/** A message a member was asked to sign with a wallet (issue 18), single use. */
export type Web3WalletChallengeTable = {
  id: string;
  user_id: string;
  /** Lower case. */
  address: string;
  message: string;
  expires_at: string;
  used_at: string | null;
  created_at: string;
};

/** A wallet address a member proved theirs by signing a challenge; one member per address. */
export type Web3WalletTable = {
  /** Lower case. */
  address: string;
  user_id: string;
  proven_at: string;
};

/** A (chain, hash) credited by one of the deposit paths; the primary key makes it once, whatever the path. */
export type ChainCreditTable = {
  chain_id: number;
  /** Lower case. */
  tx_hash: string;
  source: 'manual' | 'onchain' | 'payment';
  source_id: string;
  /** Set in the claiming transaction once the credit is posted. */
  ledger_transfer_id: string | null;
  created_at: string;
};

export type Database = {
  users: UserTable;
  sessions: SessionTable;
  rate_limits: RateLimitTable;
  app_secrets: AppSecretTable;
  ledger_accounts: LedgerAccountTable;
  ledger_transfers: LedgerTransferTable;
  idempotency_keys: IdempotencyKeyTable;
  audit_log: AuditLogTable;
  transfer_daily_totals: TransferDailyTotalTable;
  crypto_payments: CryptoPaymentTable;
  payment_credits: PaymentCreditTable;
  sandbox_payments: SandboxPaymentTable;
  notifications: NotificationTable;
  notification_recipients: NotificationRecipientTable;
  uploads: UploadTable;
  tickets: TicketTable;
  ticket_responses: TicketResponseTable;
  push_subscriptions: PushSubscriptionTable;
  mail_outbox: MailOutboxTable;
  password_resets: PasswordResetTable;
  email_codes: EmailCodeTable;
  payout_address_changes: PayoutAddressChangeTable;
  two_factor: TwoFactorTable;
  income_runs: IncomeRunTable;
  roi_payments: RoiPaymentTable;
  level_incomes: LevelIncomeTable;
  two_factor_recovery_codes: TwoFactorRecoveryCodeTable;
  two_factor_challenges: TwoFactorChallengeTable;
  settings: SettingTable;
  plans: PlanTable;
  level_percents: LevelPercentTable;
  topups: TopupTable;
  activation_incomes: ActivationIncomeTable;
  activation_codes: ActivationCodeTable;
  withdrawals: WithdrawalTable;
  manual_deposits: ManualDepositTable;
  reward_plans: RewardPlanTable;
  reward_claims: RewardClaimTable;
  cto_payments: CtoPaymentTable;
  cto_payouts: CtoPayoutTable;
  achievers: AchieverTable;
  rank_exclusions: RankExclusionTable;
  salary_tiers: SalaryTierTable;
  salary_payments: SalaryPaymentTable;
  salary_runs: SalaryRunTable;
  team_totals: TeamTotalsTable;
  web3_deposits: Web3DepositTable;
  web3_wallet_challenges: Web3WalletChallengeTable;
  web3_wallets: Web3WalletTable;
  chain_credits: ChainCreditTable;
  news: NewsTable;
  qr_links: QrLinkTable;
};
