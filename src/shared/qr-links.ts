import * as v from 'valibot';
import { bep20Problem, trc20Problem } from './payout-address.ts';
import { oneLineText } from './text.ts';

// QR links (issue 19 item 4, docs/rules.md "News and QR links"): an admin adds a label and a value,
// an https link or a BEP20/TRC20 wallet address, and members see each as a QR code where they deposit.
// The address is checked with its checksum: a mistyped address would take members' money to nobody.
// Member screens import only this file's types (the checksum code stays in the admin chunk).

export const QR_LINK_MESSAGES = {
  created: 'QR link added',
  deleted: 'QR link removed',
  labelRequired: 'Label is required (at most 60 characters)',
  valueInvalid: 'Enter an https:// link or a BEP20 (0x...) or TRC20 (T...) wallet address',
  notFound: 'No QR link with this id',
} as const;
const M = QR_LINK_MESSAGES;

export const QR_LINK_LABEL_MAX = 60;
export const QR_LINK_VALUE_MAX = 500;

export type QrLinkKind = 'url' | 'address';

/** What a value is, or the message that refuses it. */
export function qrLinkValueCheck(value: string): { kind: QrLinkKind } | { problem: string } {
  if (/^0x/i.test(value)) {
    const problem = bep20Problem(value);
    return problem ? { problem } : { kind: 'address' };
  }
  if (/^T[1-9A-HJ-NP-Za-km-z]{33}$/.test(value)) {
    const problem = trc20Problem(value);
    return problem ? { problem } : { kind: 'address' };
  }
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return { problem: M.valueInvalid };
  }
  // https only, a real host, and no user:password@ that could hide where the link goes.
  if (url.protocol !== 'https:' || !url.hostname.includes('.') || url.username || url.password)
    return { problem: M.valueInvalid };
  return { kind: 'url' };
}

/** POST /qr/add (admin). */
export const qrLinkInputSchema = v.object({
  label: v.pipe(
    v.string(M.labelRequired),
    v.trim(),
    v.minLength(1, M.labelRequired),
    v.maxLength(QR_LINK_LABEL_MAX, M.labelRequired),
    oneLineText(),
  ),
  value: v.pipe(
    v.string(M.valueInvalid),
    v.trim(),
    v.minLength(1, M.valueInvalid),
    v.maxLength(QR_LINK_VALUE_MAX, M.valueInvalid),
    v.rawCheck(({ dataset, addIssue }) => {
      if (!dataset.typed) return;
      const checked = qrLinkValueCheck(dataset.value);
      if ('problem' in checked) addIssue({ message: checked.problem });
    }),
  ),
});
export type QrLinkInput = v.InferOutput<typeof qrLinkInputSchema>;

export const qrLinkSchema = v.object({
  id: v.string(),
  label: v.string(),
  value: v.string(),
  kind: v.picklist(['url', 'address']),
  created_at: v.string(),
});
export type QrLink = v.InferOutput<typeof qrLinkSchema>;
