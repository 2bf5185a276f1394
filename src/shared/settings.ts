import * as v from 'valibot';
import { formatCents, formatPercent, formatUsd, parseCents } from './money.ts';
import { oneLineText } from './text.ts';

// The settings an admin changes on /admin/settings (issue 19, API.md "Settings", RULES.md: "every
// number below is a default that an admin can change on the Settings screen"). One definition per
// name: its kind, default, bounds, unit and explanation; the API's values (money and percents as
// decimal strings, flags as booleans), the PUT schema and the admin form all come from it. The money
// code reads them with settingRules() inside the transaction that moves the money.

export const SETTINGS_MESSAGES = {
  saved: 'Settings saved',
  unknownName: 'Unknown setting',
  booleanValue: 'The value must be true or false',
  nothingToChange: 'Name at least one setting to change',
  withdrawalNetsNothing:
    'With this minimum and fee a withdrawal of the minimum would pay out nothing: raise the minimum or lower the fee',
} as const;

type MoneySetting = { kind: 'money'; default: string; min: number; max: number };
type PercentSetting = { kind: 'percent'; default: string; min: number; max: number };
/** A duration, kept and answered in seconds (API.md), shown to admins in `shownIn`. */
type SecondsSetting = {
  kind: 'seconds';
  default: number;
  min: number;
  max: number;
  shownIn: 'minutes' | 'hours';
};
type FlagSetting = { kind: 'boolean'; default: boolean };
/** Free text on one line; `format: 'email'` takes an e-mail address or '' (none). */
type TextSetting = { kind: 'text'; default: string; maxLength: number; format?: 'email' };
/** Where the form shows it: the money rules, accounts (lifetimes), the site, or security (two-factor). */
export type SettingGroup = 'money' | 'accounts' | 'site' | 'security';
type SettingDef = (MoneySetting | PercentSetting | SecondsSetting | FlagSetting | TextSetting) & {
  group: SettingGroup;
  label: string;
  unit: string;
  help: string;
};

const MINUTE = 60;
const HOUR = 60 * MINUTE;

/** min and max in cents (money), hundredths of a percent (percent) or seconds, all inclusive. */
export const SETTING_DEFS = {
  transfer_review_threshold: {
    kind: 'money',
    group: 'money',
    default: '5000.00',
    min: 1,
    max: 100_000_000,
    label: 'Transfer review threshold',
    unit: 'USD',
    help: 'A transfer of this amount or more waits for an admin; the money is held from the sender at once.',
  },
  daily_transfer_limit: {
    kind: 'money',
    group: 'money',
    default: '25000.00',
    min: 1,
    max: 1_000_000_000,
    label: 'Daily transfer limit',
    unit: 'USD per member per UTC day',
    help: 'The most a member may send to other members in one day (moves between their own wallets do not count).',
  },
  withdrawal_minimum: {
    kind: 'money',
    group: 'money',
    default: '10.00',
    min: 1,
    max: 10_000_000,
    label: 'Withdrawal minimum',
    unit: 'USD',
    help: 'The smallest income or ROI withdrawal a member may ask for.',
  },
  withdrawal_fee_percent: {
    kind: 'percent',
    group: 'money',
    default: '5.00',
    min: 0,
    max: 5_000,
    label: 'Withdrawal fee',
    unit: '% of the amount',
    help: 'Taken from each withdrawal paid out (not from a compound); a request keeps the fee it was made with.',
  },
  income_cap_percent: {
    kind: 'percent',
    group: 'money',
    default: '200.00',
    min: 100,
    max: 100_000,
    label: 'Income cap',
    unit: '% of the investment',
    help: 'An investment earns daily ROI until it has paid this much of its amount, or its days end. Each investment keeps the cap it was bought with, so a change applies to investments made after it.',
  },
  cto_share_percent: {
    kind: 'percent',
    group: 'money',
    default: '1.00',
    min: 0,
    max: 1_000,
    label: 'CTO share',
    unit: '% of the month’s deposits',
    help: 'The pool split among the top two ranks when an admin pays a month; a paid month keeps its pool.',
  },
  otp_lifetime_seconds: {
    kind: 'seconds',
    group: 'accounts',
    default: 15 * MINUTE,
    min: 5 * MINUTE,
    max: 24 * HOUR,
    shownIn: 'minutes',
    label: 'E-mailed code and link lifetime',
    unit: 'minutes',
    help: 'How long an e-mailed one-time code (address check, withdrawal, payout address) or password reset link works; a code or link already sent keeps the lifetime it was sent with.',
  },
  member_session_seconds: {
    kind: 'seconds',
    group: 'accounts',
    default: 24 * HOUR,
    min: 15 * MINUTE,
    max: 90 * 24 * HOUR,
    shownIn: 'hours',
    label: 'Member sign-in lifetime',
    unit: 'hours',
    help: 'How long a member stays signed in on a device before signing in again; applies to sign-ins after the change.',
  },
  admin_session_seconds: {
    kind: 'seconds',
    group: 'accounts',
    default: 8 * HOUR,
    min: 15 * MINUTE,
    max: 7 * 24 * HOUR,
    shownIn: 'hours',
    label: 'Admin sign-in lifetime',
    unit: 'hours',
    help: 'How long an admin stays signed in before signing in again; applies to sign-ins after the change.',
  },
  member_idle_seconds: {
    kind: 'seconds',
    group: 'accounts',
    default: 2 * HOUR,
    min: 5 * MINUTE,
    max: 90 * 24 * HOUR,
    shownIn: 'minutes',
    label: 'Member idle sign-out',
    unit: 'minutes',
    help: 'A member signed in but unused for this long is signed out, before the sign-in lifetime ends; applies to sign-ins after the change.',
  },
  admin_idle_seconds: {
    kind: 'seconds',
    group: 'accounts',
    default: 30 * MINUTE,
    min: 5 * MINUTE,
    max: 24 * HOUR,
    shownIn: 'minutes',
    label: 'Admin idle sign-out',
    unit: 'minutes',
    help: 'An admin signed in but unused for this long is signed out, before the sign-in lifetime ends; applies to sign-ins after the change.',
  },
  site_name: {
    kind: 'text',
    group: 'site',
    default: 'Member Platform',
    maxLength: 60,
    label: 'Site name',
    unit: 'text',
    help: 'The name e-mails are sent under and signed with, and the name of the site in the support details members see.',
  },
  support_email: {
    kind: 'text',
    group: 'site',
    format: 'email',
    default: '',
    maxLength: 254,
    label: 'Support e-mail',
    unit: 'e-mail address, or empty for none',
    help: 'Shown to members beside their support tickets and at the foot of every e-mail; empty shows none.',
  },
  admin_two_factor_required: {
    kind: 'boolean',
    group: 'security',
    // On unless an admin turns it off: an admin account moves members' money, so a password alone is
    // not enough; a new admin is held to the set-up screen at first sign-in.
    default: true,
    label: 'Two-factor sign-in required for admins',
    unit: 'on or off',
    help: 'Every admin must sign in with an authenticator code; turn on your own first.',
  },
} as const satisfies Record<string, SettingDef>;

export type SettingName = keyof typeof SETTING_DEFS;
export const SETTING_NAMES = Object.keys(SETTING_DEFS) as SettingName[];
type NamesOfKind<K extends SettingDef['kind']> = {
  [N in SettingName]: (typeof SETTING_DEFS)[N]['kind'] extends K ? N : never;
}[SettingName];
export type DecimalSettingName = NamesOfKind<'money' | 'percent'>;
export type SecondsSettingName = NamesOfKind<'seconds'>;
export type TextSettingName = NamesOfKind<'text'>;

export const DEFAULT_SETTINGS = Object.fromEntries(
  SETTING_NAMES.map((name) => [name, SETTING_DEFS[name].default]),
) as Settings;

/** A default as an admin reads it: "$10.00", "5%", "15 minutes", "Member Platform", "none". */
export function describeDefault(name: SettingName): string {
  const def: SettingDef = SETTING_DEFS[name];
  if (def.kind === 'money') return formatUsd(def.default);
  if (def.kind === 'percent') return formatPercent(def.default);
  if (def.kind === 'seconds') return `${def.default / SHOWN_IN_SECONDS[def.shownIn]} ${def.shownIn}`;
  if (def.kind === 'boolean') return def.default ? 'on' : 'off';
  return def.default === '' ? 'none' : def.default;
}

export const SHOWN_IN_SECONDS = { minutes: MINUTE, hours: HOUR } as const;

const span = (seconds: number) =>
  seconds % HOUR === 0
    ? `${seconds / HOUR} hour${seconds === HOUR ? '' : 's'}`
    : `${seconds / MINUTE} minutes`;

export const settingRangeMessage = (name: SettingName) => {
  const def: SettingDef = SETTING_DEFS[name];
  switch (def.kind) {
    case 'boolean':
      return SETTINGS_MESSAGES.booleanValue;
    case 'money':
      return `${def.label} must be between ${formatUsd(def.min)} and ${formatUsd(def.max)}, with at most 2 decimals`;
    case 'percent':
      return `${def.label} must be between ${formatPercent(formatCents(def.min))} and ${formatPercent(formatCents(def.max))}, with at most 2 decimals`;
    case 'seconds':
      return `${def.label} must be a whole number of seconds from ${def.min} to ${def.max} (${span(def.min)} to ${span(def.max)})`;
    case 'text':
      return def.format === 'email'
        ? `${def.label} must be an e-mail address of at most ${def.maxLength} characters, or empty`
        : `${def.label} must be 1 to ${def.maxLength} characters on one line`;
  }
};

/** A number with at most 2 decimals, within its bounds, kept as "12.50". */
function decimalSetting(name: DecimalSettingName) {
  const def: MoneySetting | PercentSetting = SETTING_DEFS[name];
  const message = settingRangeMessage(name);
  return v.pipe(
    v.union([v.string(), v.number()], message),
    v.transform((input) => parseCents(input)),
    v.number(message),
    v.minValue(def.min, message),
    v.maxValue(def.max, message),
    v.transform(formatCents),
  );
}

/** A whole number of seconds within its bounds. */
function secondsSetting(name: SecondsSettingName) {
  const def: SecondsSetting = SETTING_DEFS[name];
  const message = settingRangeMessage(name);
  return v.pipe(
    v.number(message),
    v.integer(message),
    v.minValue(def.min, message),
    v.maxValue(def.max, message),
  );
}

// No control characters (the site name goes into mail headers, the sender's name), as all free text.

/** Text on one line, trimmed; an e-mail setting takes an address or ''. */
function textSetting(name: TextSettingName) {
  const def: TextSetting = SETTING_DEFS[name];
  const message = settingRangeMessage(name);
  const trimmed = v.pipe(
    v.string(message),
    v.trim(),
    v.maxLength(def.maxLength, message),
    oneLineText(message),
  );
  return def.format === 'email'
    ? v.pipe(
        trimmed,
        v.check((text) => text === '' || v.is(v.pipe(v.string(), v.email()), text), message),
      )
    : v.pipe(trimmed, v.minLength(1, message));
}

/** The API's values: money and percents as decimal strings with 2 decimals, durations in seconds, flags as booleans. */
export const settingsSchema = v.object({
  transfer_review_threshold: v.string(),
  daily_transfer_limit: v.string(),
  withdrawal_minimum: v.string(),
  withdrawal_fee_percent: v.string(),
  income_cap_percent: v.string(),
  cto_share_percent: v.string(),
  otp_lifetime_seconds: v.number(),
  member_session_seconds: v.number(),
  admin_session_seconds: v.number(),
  member_idle_seconds: v.number(),
  admin_idle_seconds: v.number(),
  site_name: v.string(),
  support_email: v.string(),
  admin_two_factor_required: v.boolean(),
});
export type Settings = v.InferOutput<typeof settingsSchema>;

/** PUT /settings: some of the names, each valid; an unknown name is a 400. */
export const settingsUpdateSchema = v.pipe(
  v.strictObject(
    {
      transfer_review_threshold: v.optional(decimalSetting('transfer_review_threshold')),
      daily_transfer_limit: v.optional(decimalSetting('daily_transfer_limit')),
      withdrawal_minimum: v.optional(decimalSetting('withdrawal_minimum')),
      withdrawal_fee_percent: v.optional(decimalSetting('withdrawal_fee_percent')),
      income_cap_percent: v.optional(decimalSetting('income_cap_percent')),
      cto_share_percent: v.optional(decimalSetting('cto_share_percent')),
      otp_lifetime_seconds: v.optional(secondsSetting('otp_lifetime_seconds')),
      member_session_seconds: v.optional(secondsSetting('member_session_seconds')),
      admin_session_seconds: v.optional(secondsSetting('admin_session_seconds')),
      member_idle_seconds: v.optional(secondsSetting('member_idle_seconds')),
      admin_idle_seconds: v.optional(secondsSetting('admin_idle_seconds')),
      site_name: v.optional(textSetting('site_name')),
      support_email: v.optional(textSetting('support_email')),
      admin_two_factor_required: v.optional(v.boolean(SETTINGS_MESSAGES.booleanValue)),
    },
    SETTINGS_MESSAGES.unknownName,
  ),
  v.check((input) => Object.keys(input).length > 0, SETTINGS_MESSAGES.nothingToChange),
);
export type SettingsUpdate = v.InferOutput<typeof settingsUpdateSchema>;
export const settingsAnswerSchema = v.object({ settings: settingsSchema });
export const settingsSavedSchema = v.object({ message: v.string(), settings: settingsSchema });

/** What every visitor may know: the site's name and its support address ('' when none). */
export const publicSettingsSchema = v.object({ site_name: v.string(), support_email: v.string() });
export type PublicSettings = v.InferOutput<typeof publicSettingsSchema>;

/** The settings as the code uses them: integer cents, basis points and milliseconds. */
export type SettingRules = {
  transferReviewThresholdCents: number;
  dailyTransferLimitCents: number;
  withdrawalMinimumCents: number;
  withdrawalFeeBp: number;
  incomeCapBp: number;
  ctoShareBp: number;
  otpLifetimeMs: number;
  memberSessionMs: number;
  adminSessionMs: number;
  memberIdleMs: number;
  adminIdleMs: number;
  siteName: string;
  supportEmail: string;
  adminTwoFactorRequired: boolean;
};

const hundredths = (text: string) => parseCents(text) ?? 0;

export function settingRules(settings: Settings): SettingRules {
  return {
    transferReviewThresholdCents: hundredths(settings.transfer_review_threshold),
    dailyTransferLimitCents: hundredths(settings.daily_transfer_limit),
    withdrawalMinimumCents: hundredths(settings.withdrawal_minimum),
    // "5.00" percent is 500 hundredths of a percent: basis points.
    withdrawalFeeBp: hundredths(settings.withdrawal_fee_percent),
    incomeCapBp: hundredths(settings.income_cap_percent),
    ctoShareBp: hundredths(settings.cto_share_percent),
    otpLifetimeMs: settings.otp_lifetime_seconds * 1000,
    memberSessionMs: settings.member_session_seconds * 1000,
    adminSessionMs: settings.admin_session_seconds * 1000,
    memberIdleMs: settings.member_idle_seconds * 1000,
    adminIdleMs: settings.admin_idle_seconds * 1000,
    siteName: settings.site_name,
    supportEmail: settings.support_email,
    adminTwoFactorRequired: settings.admin_two_factor_required,
  };
}

/** The most ROI an investment of amountCents may earn under a cap of capBp, rounded down to the cent. */
export const incomeCapCents = (amountCents: number, capBp: number) =>
  Math.floor((amountCents * capBp) / 10_000);
