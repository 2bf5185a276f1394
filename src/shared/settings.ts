import * as v from 'valibot';
import { formatCents, parseCents } from './money.ts';

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
} as const;

type MoneySetting = { kind: 'money'; default: string; min: number; max: number };
type PercentSetting = { kind: 'percent'; default: string; min: number; max: number };
type FlagSetting = { kind: 'boolean'; default: boolean };
type SettingDef = (MoneySetting | PercentSetting | FlagSetting) & {
  label: string;
  unit: string;
  help: string;
};

/** min and max in cents (money) or hundredths of a percent (percent), both inclusive. */
export const SETTING_DEFS = {
  transfer_review_threshold: {
    kind: 'money',
    default: '5000.00',
    min: 1,
    max: 100_000_000,
    label: 'Transfer review threshold',
    unit: 'USD',
    help: 'A transfer of this amount or more waits for an admin; the money is held from the sender at once.',
  },
  daily_transfer_limit: {
    kind: 'money',
    default: '25000.00',
    min: 1,
    max: 1_000_000_000,
    label: 'Daily transfer limit',
    unit: 'USD per member per UTC day',
    help: 'The most a member may send to other members in one day (moves between their own wallets do not count).',
  },
  withdrawal_minimum: {
    kind: 'money',
    default: '10.00',
    min: 1,
    max: 10_000_000,
    label: 'Withdrawal minimum',
    unit: 'USD',
    help: 'The smallest income or ROI withdrawal a member may ask for.',
  },
  withdrawal_fee_percent: {
    kind: 'percent',
    default: '5.00',
    min: 0,
    max: 5_000,
    label: 'Withdrawal fee',
    unit: '% of the amount',
    help: 'Taken from each withdrawal paid out (not from a compound); a request keeps the fee it was made with.',
  },
  cto_share_percent: {
    kind: 'percent',
    default: '1.00',
    min: 0,
    max: 1_000,
    label: 'CTO share',
    unit: '% of the month’s deposits',
    help: 'The pool split among the top two ranks when an admin pays a month; a paid month keeps its pool.',
  },
  admin_two_factor_required: {
    kind: 'boolean',
    default: false,
    label: 'Two-factor sign-in required for admins',
    unit: 'on or off',
    help: 'Every admin must sign in with an authenticator code; turn on your own first.',
  },
} as const satisfies Record<string, SettingDef>;

export type SettingName = keyof typeof SETTING_DEFS;
export const SETTING_NAMES = Object.keys(SETTING_DEFS) as SettingName[];

export const DEFAULT_SETTINGS = Object.fromEntries(
  SETTING_NAMES.map((name) => [name, SETTING_DEFS[name].default]),
) as Settings;

const rangeText = (def: MoneySetting | PercentSetting) =>
  def.kind === 'money'
    ? `between $${formatCents(def.min)} and $${formatCents(def.max)}`
    : `between ${formatCents(def.min)}% and ${formatCents(def.max)}%`;

export const settingRangeMessage = (name: SettingName) => {
  const def: SettingDef = SETTING_DEFS[name];
  return def.kind === 'boolean'
    ? SETTINGS_MESSAGES.booleanValue
    : `${def.label} must be ${rangeText(def)}, with at most 2 decimals`;
};

/** A number with at most 2 decimals, within its bounds, kept as "12.50". */
function decimalSetting(name: Exclude<SettingName, 'admin_two_factor_required'>) {
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

/** The API's values: money and percents as decimal strings with 2 decimals, flags as booleans. */
export const settingsSchema = v.object({
  transfer_review_threshold: v.string(),
  daily_transfer_limit: v.string(),
  withdrawal_minimum: v.string(),
  withdrawal_fee_percent: v.string(),
  cto_share_percent: v.string(),
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
      cto_share_percent: v.optional(decimalSetting('cto_share_percent')),
      admin_two_factor_required: v.optional(v.boolean(SETTINGS_MESSAGES.booleanValue)),
    },
    SETTINGS_MESSAGES.unknownName,
  ),
  v.check((input) => Object.keys(input).length > 0, SETTINGS_MESSAGES.nothingToChange),
);
export type SettingsUpdate = v.InferOutput<typeof settingsUpdateSchema>;
export const settingsAnswerSchema = v.object({ settings: settingsSchema });
export const settingsSavedSchema = v.object({ message: v.string(), settings: settingsSchema });

/** The settings as the money code uses them: integer cents and basis points. */
export type SettingRules = {
  transferReviewThresholdCents: number;
  dailyTransferLimitCents: number;
  withdrawalMinimumCents: number;
  withdrawalFeeBp: number;
  ctoShareBp: number;
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
    ctoShareBp: hundredths(settings.cto_share_percent),
    adminTwoFactorRequired: settings.admin_two_factor_required,
  };
}

export const DEFAULT_RULES = settingRules(DEFAULT_SETTINGS);
