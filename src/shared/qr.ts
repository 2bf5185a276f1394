import * as v from 'valibot';

/*
 * The QR codes this app writes and reads.
 *
 * A member's "Receive" code is a web address of this app: `<origin>/user/transfer-form?to=<e-mail>`
 * (the e-mail URI-encoded). Scanned inside the app it fills the recipient of the transfer form; read
 * by a phone's own camera it opens that form with the recipient filled in. Only an address of the
 * origin the app runs on counts as a member code, so a look-alike site's code is refused.
 *
 * A wallet address code is a plain BEP20 address (0x and 40 hex digits), as wallet apps show it; an
 * `ethereum:` prefix, a `@chain` suffix and a `?query` (amount) are tolerated and dropped.
 */

export const MEMBER_QR_PATH = '/user/transfer-form';
export const MEMBER_QR_PARAM = 'to';

export const QR_MESSAGES = {
  notMemberCode:
    'This QR code is not a member code of this app. Ask the member for the QR code on their Receive screen.',
  notAddressCode: 'This QR code does not hold a wallet address.',
  receiveTitle: 'Receive',
  receiveHelp: 'Show this code to another member: scanning it in their transfer form fills in your e-mail.',
  scanButton: 'Scan QR',
  scanTitle: 'Scan a QR code',
  scanPhoto: 'Scan a photo',
  cameraUnavailable:
    'The camera could not be opened (no camera, or permission refused). Take or choose a photo of the code instead.',
  photoUnreadable: 'No QR code was found in this photo. Try a sharper photo, closer to the code.',
} as const;

const emailSchema = v.pipe(v.string(), v.trim(), v.maxLength(254), v.email(), v.toLowerCase());
const ADDRESS = /^0x[0-9a-fA-F]{40}$/;

/** The e-mail, checked and lower-cased, or null when it is not one. */
export function memberEmail(value: unknown): string | null {
  const parsed = v.safeParse(emailSchema, value);
  return parsed.success ? parsed.output : null;
}

/** The text of a member's Receive code. */
export function memberQrText(origin: string, email: string): string {
  return `${origin}${MEMBER_QR_PATH}?${MEMBER_QR_PARAM}=${encodeURIComponent(email)}`;
}

export type QrPayload =
  | { kind: 'member'; email: string }
  | { kind: 'address'; address: string }
  | { kind: 'unknown' };

/** What a scanned text is, for the app running at `origin` (e.g. `https://example.com`). */
export function parseQrPayload(text: string, origin: string): QrPayload {
  const raw = text.trim();
  const address = walletAddressOf(raw);
  if (address) return { kind: 'address', address };
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    return { kind: 'unknown' };
  }
  let appOrigin: string;
  try {
    appOrigin = new URL(origin).origin;
  } catch {
    return { kind: 'unknown' };
  }
  if (url.origin !== appOrigin || url.pathname !== MEMBER_QR_PATH) return { kind: 'unknown' };
  const email = memberEmail(url.searchParams.get(MEMBER_QR_PARAM));
  return email ? { kind: 'member', email } : { kind: 'unknown' };
}

/** A BEP20 address from a scanned text (plain, or `ethereum:<address>[@chain][?query]`), or null. */
export function walletAddressOf(text: string): string | null {
  const raw = text.trim().replace(/^ethereum:/i, '');
  const candidate = raw.split(/[@?]/, 1)[0] ?? '';
  return ADDRESS.test(candidate) ? candidate : null;
}
