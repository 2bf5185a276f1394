import { createFileRoute } from '@tanstack/react-router';
import { NewsList } from '../../features/news/components/news-list.tsx';

export const Route = createFileRoute('/user/news')({ component: NewsPage });

function NewsPage() {
  return (
    <div className="stack">
      <h1>News</h1>
      <NewsList />
    </div>
  );
}
