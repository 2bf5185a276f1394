import { describe, expect, it } from 'vitest';
import { DEPOSIT_MESSAGES } from '../../../shared/deposits.ts';
import { ApiError, NetworkError } from '../../lib/http.ts';
import { addErrorText } from './api.ts';

// Spec 8: a failed deposit add shows the server's error, else its message, else "An unexpected error occurred".
describe('addErrorText', () => {
  it('prefers the server’s error, then its message', () => {
    expect(addErrorText(new ApiError(409, { message: 'taken', error: 'Hash taken' }))).toBe('Hash taken');
    expect(addErrorText(new ApiError(409, { message: DEPOSIT_MESSAGES.duplicateHash }))).toBe(
      DEPOSIT_MESSAGES.duplicateHash,
    );
  });
  it('falls back to the spec’s text when the server said nothing, or nothing answered', () => {
    expect(addErrorText(new ApiError(500, { message: '' }))).toBe('An unexpected error occurred');
    expect(addErrorText(new NetworkError())).toBe('An unexpected error occurred');
    expect(addErrorText(new TypeError('Failed to fetch'))).toBe('An unexpected error occurred');
  });
});
