import { createFileRoute } from '@tanstack/react-router';
import { useEffect } from 'react';
import { PublicLayout } from '../app/layouts/public-layout.tsx';

// The landing page is not part of the app: it is prerendered at build time (src/landing) and the
// server answers GET / with it. This route only catches an in-app link to "/" (not found, unauthorized,
// payment done) and turns it into a real page load of the landing page, keeping any #section.
export const Route = createFileRoute('/')({ component: ToLanding });

/** True when this document itself was loaded at "/": then the server had no landing page to give. */
function loadedAtRoot(): boolean {
  const entry = performance.getEntriesByType('navigation')[0];
  return entry ? new URL(entry.name).pathname === '/' : false;
}

function ToLanding() {
  const stay = loadedAtRoot();
  useEffect(() => {
    if (!stay) window.location.replace(`/${window.location.hash}`);
  }, [stay]);
  // Seen only for a moment, or when the app runs without a built landing page (the Vite dev server
  // serves it too, so in practice: never).
  return (
    <PublicLayout>
      <div className="status-page">
        <h1>Member Platform</h1>
        <p>
          <a href="/">Open the home page</a>
        </p>
      </div>
    </PublicLayout>
  );
}
