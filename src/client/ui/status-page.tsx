import type { ReactNode } from 'react';

/** A whole-page message: not-found, unauthorized, the fallback after an uncaught error. */
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
    <main className="status-page" id="main">
      {code ? (
        <p className="status-code" aria-hidden="true">
          {code}
        </p>
      ) : null}
      <h1>{title}</h1>
      <p>{text}</p>
      <div className="status-actions">{children}</div>
    </main>
  );
}
