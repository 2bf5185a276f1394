import { createFileRoute } from '@tanstack/react-router';
import { AdminNews } from '../../features/news/components/admin-news.tsx';

export const Route = createFileRoute('/admin/news')({ component: NewsPage });

function NewsPage() {
  return (
    <div className="stack">
      <h1>News</h1>
      <p className="muted">
        Members see published news on their dashboard (the newest three) and on their news screen; a draft
        only admins see.
      </p>
      <AdminNews />
    </div>
  );
}
