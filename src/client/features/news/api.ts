import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { News, NewsInput, NewsUpdate } from '../../../shared/news.ts';
import { api } from '../../lib/http.ts';

// News (docs/api.md "News"): members read the published list; admins also write, publish and delete.
// Only types come from shared/news.ts, so the dashboard's card carries no schema code.

/** `limit`: the newest few (the dashboard's card); none: the whole list the server answers. */
export const newsListQuery = (limit?: number) =>
  queryOptions({
    queryKey: ['news', 'list', limit ?? 'all'],
    queryFn: () => api<{ news: News[] }>('GET', limit ? `/news/list?limit=${limit}` : '/news/list'),
    staleTime: 60_000,
  });

const path = (id: string) => `/news/${encodeURIComponent(id)}`;

export const createNews = (input: NewsInput) =>
  api<{ message: string; news: News }>('POST', '/news/add', input);
export const updateNews = (id: string, input: NewsUpdate) =>
  api<{ message: string; news: News }>('PUT', path(id), input);
export const deleteNews = (id: string) => api<{ message: string }>('DELETE', path(id));

export const refreshNews = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['news'] });
