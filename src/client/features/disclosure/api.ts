import { queryOptions } from '@tanstack/react-query';
import type { Disclosure } from '../../../shared/disclosure.ts';
import { api } from '../../lib/http.ts';

export const disclosureQuery = queryOptions({
  queryKey: ['public', 'income-disclosure'],
  queryFn: () => api<Disclosure>('GET', '/public/income-disclosure'),
  staleTime: 60 * 60_000,
});
