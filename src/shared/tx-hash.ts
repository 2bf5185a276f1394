import * as v from 'valibot';

/**
 * A BSC (or Ethereum) transaction hash: 0x and 64 hex digits, trimmed and kept in lower case, so the
 * same hash typed in another case is the same hash (a manual deposit's uniqueness depends on it).
 */
export const txHashSchema = (messages: { required: string; invalid: string }) =>
  v.pipe(
    v.string(messages.required),
    v.trim(),
    v.nonEmpty(messages.required),
    v.regex(/^0x[0-9a-fA-F]{64}$/, messages.invalid),
    v.toLowerCase(),
  );
