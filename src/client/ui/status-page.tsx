import type { ReactNode } from 'react';

/**
 * A whole-page message: not-found, unauthorized, the fallback after an uncaught error. It sits inside
 * the page's one <main> (the public layout's, or the fallback's own), so it is not a landmark itself.
 */
export function StatusPage({
  code,
  title,
  text,
  children,
}: {
  code?: string;
  title: string;
  text: string;
  children?: ReactNode;
}) {
  return (
    <div className="status-page">
      {code ? (
        <p className="status-code" aria-hidden="true">
          {code}
        </p>
      ) : null}
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="status-actions">{children}</div>
    </div>
  );
}
