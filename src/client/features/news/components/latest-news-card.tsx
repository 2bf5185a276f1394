import { useQuery } from '@tanstack/react-query';
import { Link } from '@tanstack/react-router';
import { formatDateTime } from '../../../lib/format.ts';
import { newsListQuery } from '../api.ts';

// The member dashboard's "Latest news" card: loaded lazily and kept small (the dashboard's cold load
// has a JavaScript budget). Titles and dates only; the text and pictures are on the news screen.

const LATEST_NEWS = 3;

export default function LatestNewsCard() {
  const { data, error } = useQuery(newsListQuery(LATEST_NEWS));
  const news = data?.news ?? [];
  return (
    <section className="card" aria-labelledby="latest-news-title">
      <h2 id="latest-news-title">Latest news</h2>
      {error ? (
        <p className="muted">News could not be loaded.</p>
      ) : data && news.length === 0 ? (
        <p className="muted">No news yet.</p>
      ) : (
        <ul className="plain-list" data-testid="latest-news">
          {news.map((item) => (
            <li key={item.id}>
              <strong>{item.title}</strong>{' '}
              <span className="muted">{formatDateTime(item.published_at ?? item.created_at)}</span>
            </li>
          ))}
        </ul>
      )}
      <Link to="/user/news" className="button">
        All news
      </Link>
    </section>
  );
}
