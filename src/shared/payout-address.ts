import { sha256 } from '@noble/hashes/sha2.js';
import { keccak_256 } from '@noble/hashes/sha3.js';
import { base58 } from '@scure/base';
import * as v from 'valibot';
import { MEMBER_ADMIN_MESSAGES } from './users.ts';

// The payout addresses' one rule, used by the member's profile and the admin's edit form alike (issue
// 14): a mistyped address would send a member's withdrawal to nobody, so the checksums are checked, not
// only the shape. Imported by member-edit.ts and profile.ts, never by users.ts (see ADDRESS_MESSAGES).

export const PAYOUT_NETWORKS = ['bep20', 'trc20'] as const;
export type PayoutNetwork = (typeof PAYOUT_NETWORKS)[number];

// The shape messages stay in users.ts (the admin's words since issue 8): importing anything from this
// file would put the hash code into every bundle that imports users.ts, the member's main one included.
export const ADDRESS_MESSAGES = {
  bep20Invalid: MEMBER_ADMIN_MESSAGES.bep20Invalid,
  bep20Checksum:
    'This BEP20 address has a wrong mix of capital and small letters (its checksum). Please copy it again.',
  trc20Invalid: MEMBER_ADMIN_MESSAGES.trc20Invalid,
  trc20Checksum: 'This TRC20 address has a typo (its checksum does not match). Please copy it again.',
} as const;

const BEP20_SHAPE = /^0x[0-9a-fA-F]{40}$/;
const TRC20_SHAPE = /^T[1-9A-HJ-NP-Za-km-z]{33}$/;
const TRON_VERSION = 0x41;

const hex = (bytes: Uint8Array) => Array.from(bytes, (b) => b.toString(16).padStart(2, '0')).join('');

/** EIP-55: the address's letters in the capitals that its keccak-256 hash calls for. */
export function toChecksumAddress(address: string): string {
  const lower = address.slice(2).toLowerCase();
  const hash = hex(keccak_256(new TextEncoder().encode(lower)));
  let out = '0x';
  for (let i = 0; i < lower.length; i++)
    out += Number.parseInt(hash[i] ?? '0', 16) >= 8 ? lower[i]?.toUpperCase() : lower[i];
  return out;
}

/** null when the BEP20 address is valid, else the message. All-small or all-capital letters carry no checksum. */
export function bep20Problem(address: string): string | null {
  if (!BEP20_SHAPE.test(address)) return ADDRESS_MESSAGES.bep20Invalid;
  const body = address.slice(2);
  if (body === body.toLowerCase() || body === body.toUpperCase()) return null;
  return toChecksumAddress(address) === address ? null : ADDRESS_MESSAGES.bep20Checksum;
}

/** null when the TRC20 address is valid: base58check of 25 bytes, version 0x41, double-SHA-256 checksum. */
export function trc20Problem(address: string): string | null {
  if (!TRC20_SHAPE.test(address)) return ADDRESS_MESSAGES.trc20Invalid;
  let bytes: Uint8Array;
  try {
    bytes = base58.decode(address);
  } catch {
    return ADDRESS_MESSAGES.trc20Invalid;
  }
  if (bytes.length !== 25 || bytes[0] !== TRON_VERSION) return ADDRESS_MESSAGES.trc20Invalid;
  const check = sha256(sha256(bytes.subarray(0, 21))).subarray(0, 4);
  return check.every((b, i) => b === bytes[21 + i]) ? null : ADDRESS_MESSAGES.trc20Checksum;
}

export const addressProblem = (network: PayoutNetwork, address: string) =>
  network === 'bep20' ? bep20Problem(address) : trc20Problem(address);

/**
 * A payout address field of a request: absent (unchanged), or a string that is trimmed and, when
 * empty, clears the address (null); otherwise it must pass its network's rule.
 */
export function payoutAddressField(network: PayoutNetwork) {
  return v.optional(
    v.pipe(
      v.nullable(
        v.string(network === 'bep20' ? ADDRESS_MESSAGES.bep20Invalid : ADDRESS_MESSAGES.trc20Invalid),
      ),
      v.transform((s) => (s === null ? null : s.trim() || null)),
      v.rawCheck(({ dataset, addIssue }) => {
        if (!dataset.typed || dataset.value === null) return;
        const problem = addressProblem(network, dataset.value);
        if (problem) addIssue({ message: problem });
      }),
    ),
  );
}
