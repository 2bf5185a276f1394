import { useQuery } from '@tanstack/react-query';
import { NEWS_MESSAGES } from '../../../../shared/news.ts';
import { formatDateTime } from '../../../lib/format.ts';
import { QueryError } from '../../../ui/query-error.tsx';
import { Spinner } from '../../../ui/spinner.tsx';
import { newsListQuery } from '../api.ts';

/** Every published news item, newest first; pictures load as they scroll into view. */
export function NewsList() {
  const { data, isPending, error, refetch } = useQuery(newsListQuery());
  if (isPending) return <Spinner label="Loading news" />;
  if (error) return <QueryError error={error} onRetry={() => refetch()} className="error-view" />;
  if (data.news.length === 0) return <p className="muted">{NEWS_MESSAGES.empty}</p>;
  return (
    <ul className="stack plain-list" aria-label="News">
      {data.news.map((item) => (
        <li key={item.id}>
          <article className="card stack news-item" aria-labelledby={`news-${item.id}`}>
            <h2 id={`news-${item.id}`}>{item.title}</h2>
            <p className="muted">{formatDateTime(item.published_at ?? item.created_at)}</p>
            {item.image_url ? (
              <img src={item.image_url} alt="" loading="lazy" decoding="async" className="news-image" />
            ) : null}
            <p className="news-body">{item.body}</p>
          </article>
        </li>
      ))}
    </ul>
  );
}
