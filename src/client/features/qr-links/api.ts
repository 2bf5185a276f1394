import { type QueryClient, queryOptions } from '@tanstack/react-query';
import type { QrLink, QrLinkInput } from '../../../shared/qr-links.ts';
import { api } from '../../lib/http.ts';

// QR links (docs/api.md "QR links"): members read them where they deposit; admins add and remove.
// Only types come from shared/qr-links.ts: its address checksum code stays out of member screens.

export const qrLinksQuery = queryOptions({
  queryKey: ['qr-links'],
  queryFn: () => api<{ qr: QrLink[] }>('GET', '/qr'),
  staleTime: 60_000,
});

export const createQrLink = (input: QrLinkInput) =>
  api<{ message: string; qr: QrLink }>('POST', '/qr/add', input);
export const deleteQrLink = (id: string) =>
  api<{ message: string }>('DELETE', `/qr/${encodeURIComponent(id)}`);
export const refreshQrLinks = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: qrLinksQuery.queryKey });
