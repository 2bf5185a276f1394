import { useState } from 'react';
import { errorText } from '../lib/http.ts';

// An admin's one-press action on a screen (pay, exclude, restore, remove): held while it runs, its
// answer's message (or the error) shown as a note, then `after` (close a dialog, refetch the lists).

export type ActionNote = { tone: 'success' | 'error'; text: string } | null;

export function useAdminAction(after: () => unknown) {
  const [busy, setBusy] = useState(false);
  const [note, setNote] = useState<ActionNote>(null);
  async function act(call: () => Promise<{ message: string }>) {
    setBusy(true);
    setNote(null);
    try {
      setNote({ tone: 'success', text: (await call()).message });
    } catch (error) {
      setNote({ tone: 'error', text: errorText(error) });
    } finally {
      setBusy(false);
      await after();
    }
  }
  return { busy, note, act };
}

/** The note of useAdminAction: announced, as a status or an alert. */
export function ActionNoteView({ note }: { note: ActionNote }) {
  if (!note) return null;
  return (
    <p
      className={note.tone === 'success' ? 'notice' : 'error'}
      role={note.tone === 'success' ? 'status' : 'alert'}
    >
      {note.text}
    </p>
  );
}
