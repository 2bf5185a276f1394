import * as v from 'valibot';
import { type FieldError, issuesToFieldErrors } from '../../shared/errors.ts';

/**
 * One message per field for the form: the first issue, which is the one that matters ("Email is
 * required" for an empty box, not the "valid email" check that follows it in the same pipe).
 */
export function firstErrorPerField(errors: readonly FieldError[]): Record<string, string> {
  const byField: Record<string, string> = {};
  for (const { field, message } of errors) byField[field] ??= message;
  return byField;
}

/**
 * A form's input checked with the same shared schema the server validates with, before any request:
 * the parsed output, or one message per field to show.
 */
export function validateForm<S extends v.GenericSchema>(
  schema: S,
  input: unknown,
): { output: v.InferOutput<S>; errors?: undefined } | { output?: undefined; errors: Record<string, string> } {
  const parsed = v.safeParse(schema, input);
  return parsed.success
    ? { output: parsed.output }
    : { errors: firstErrorPerField(issuesToFieldErrors(parsed.issues)) };
}
