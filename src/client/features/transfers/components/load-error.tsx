import { loadErrorText } from '../api.ts';

/** Why the transfers did not load: the first line, then what it means or the spec's status line. */
export function LoadError({ error }: { error: unknown }) {
  const { words, detail } = loadErrorText(error);
  return (
    <>
      <p>{words}</p>
      <p className="muted">{detail}</p>
    </>
  );
}
