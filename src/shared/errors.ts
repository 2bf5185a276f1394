import * as v from 'valibot';

/** The API's one error body (API.md "Conventions"). */
export const errorBodySchema = v.object({
  message: v.string(),
  error: v.optional(v.string()),
  errors: v.optional(v.array(v.object({ field: v.string(), message: v.string() }))),
});
export type ErrorBody = v.InferOutput<typeof errorBodySchema>;
export type FieldError = { field: string; message: string };

/** Field errors of a failed parse, in the API's `errors` shape; the client's forms use the same. */
export function issuesToFieldErrors(issues: readonly v.BaseIssue<unknown>[]): FieldError[] {
  return issues.map((issue) => ({
    field: issue.path?.map((p) => String(p.key)).join('.') ?? '',
    message: issue.message,
  }));
}
