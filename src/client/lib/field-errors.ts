import type { FieldError } from '../../shared/errors.ts';

/**
 * One message per field for the form: the first issue, which is the one that matters ("Email is
 * required" for an empty box, not the "valid email" check that follows it in the same pipe).
 */
export function firstErrorPerField(errors: readonly FieldError[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const { field, message } of errors) byField[field] ??= message;
  return byField;
}
