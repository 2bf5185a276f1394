import * as v from 'valibot';

// What the member typed into a transfer that failed. The spec reloads the page when the Transfer Failed
// modal closes; this keeps the form's values across that one reload (issue 22), in sessionStorage so
// they stay in this tab only, tagged with the member so nobody else signed in here sees them.

const KEY = 'transfer-form-draft';

export type DraftFields = { email: string; amount: string; from: string; to: string; desc: string };

const draftSchema = v.object({
  memberId: v.string(),
  fields: v.object({
    email: v.string(),
    amount: v.string(),
    from: v.string(),
    to: v.string(),
    desc: v.string(),
  }),
});

export function saveDraft(memberId: string, fields: DraftFields): void {
  try {
    sessionStorage.setItem(KEY, JSON.stringify({ memberId, fields }));
  } catch {
    // Storage full or refused (private mode): the form comes back empty, as the spec has it.
  }
}

/** The member's kept values, if any. Read without removing: clearDraft() runs once the form has them. */
export function readDraft(memberId: string): DraftFields | null {
  try {
    const parsed = v.safeParse(draftSchema, JSON.parse(sessionStorage.getItem(KEY) ?? 'null'));
    return parsed.success && parsed.output.memberId === memberId ? parsed.output.fields : null;
  } catch {
    return null;
  }
}

export function clearDraft(): void {
  try {
    sessionStorage.removeItem(KEY);
  } catch {
    // Nothing was kept.
  }
}
