import { keepPreviousData, type QueryClient, queryOptions } from '@tanstack/react-query';
import { API_BASE, CSRF_COOKIE, CSRF_HEADER } from '../../../shared/constants.ts';
import type { ErrorBody } from '../../../shared/errors.ts';
import {
  type AdminTicketList,
  TICKET_MESSAGES,
  type Ticket,
  type TicketCreate,
  type TicketImageResult,
  type TicketList,
  type TicketResponseCreate,
  type TicketResponseResult,
  type TicketResponses,
  type TicketResult,
  type TicketStatus,
} from '../../../shared/tickets.ts';
import { ApiError, api, NetworkError } from '../../lib/http.ts';
import { newIdempotencyKey } from '../../lib/idempotency.ts';

// Every ticket query key starts with "tickets": the live channel's "tickets" event refetches them all.

const enc = encodeURIComponent;

export const memberTicketsQuery = (memberId: string) =>
  queryOptions({
    queryKey: ['tickets', 'member', memberId],
    queryFn: () => api<TicketList>('GET', `/tickets/${enc(memberId)}`),
    staleTime: 0,
  });

export const ticketQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ['tickets', 'single', ticketId],
    queryFn: () => api<{ ticket: Ticket }>('GET', `/tickets/single/${enc(ticketId)}`),
    staleTime: 0,
    // A ticket that is not there (or not the member's) does not appear by asking again.
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });

export const ticketResponsesQuery = (ticketId: string) =>
  queryOptions({
    queryKey: ['tickets', 'responses', ticketId],
    queryFn: () => api<TicketResponses>('GET', `/ticket-responses/${enc(ticketId)}`),
    staleTime: 0,
    retry: (count, error) => !(error instanceof ApiError && error.status === 404) && count < 1,
  });

export type AdminTicketFilter = { status?: TicketStatus; search?: string; page: number; limit: number };

export const adminTicketsQuery = (filter: AdminTicketFilter) =>
  queryOptions({
    queryKey: ['tickets', 'admin', filter],
    queryFn: () => {
      const params = new URLSearchParams({ page: String(filter.page), limit: String(filter.limit) });
      if (filter.status) params.set('status', filter.status);
      if (filter.search) params.set('search', filter.search);
      return api<AdminTicketList>('GET', `/tickets?${params}`);
    },
    staleTime: 0,
    placeholderData: keepPreviousData,
  });

/** One key per submission: a resend by the CSRF retry opens one ticket, not two. */
export const createTicket = (input: TicketCreate) =>
  api<TicketResult>('POST', '/tickets', input, { 'Idempotency-Key': newIdempotencyKey() });

export const addTicketResponse = (ticketId: string, input: TicketResponseCreate) =>
  api<TicketResponseResult>('POST', `/tickets/${enc(ticketId)}/responses`, input, {
    'Idempotency-Key': newIdempotencyKey(),
  });

export const setTicketStatus = (ticketId: string, status: TicketStatus) =>
  api<TicketResult>('PUT', `/tickets/${enc(ticketId)}/status`, { status });

const readCookie = (name: string) =>
  document.cookie
    .split('; ')
    .find((c) => c.startsWith(`${name}=`))
    ?.slice(name.length + 1);

async function postForm(path: string, form: FormData): Promise<Response> {
  if (!readCookie(CSRF_COOKIE)) await api('GET', '/auth/csrf');
  // No answer at all is the app's generic text, never the browser's "Failed to fetch" (issue 22).
  return fetch(`${API_BASE}${path}`, {
    method: 'POST',
    credentials: 'same-origin',
    headers: { accept: 'application/json', [CSRF_HEADER]: readCookie(CSRF_COOKIE) ?? '' },
    body: form,
  }).catch(() => {
    throw new NetworkError();
  });
}

/**
 * Uploads one image for a new ticket, or for an answer in `ticketId`, as multipart (the JSON client
 * cannot carry a file); the answer's name then goes into the ticket or answer as "image".
 */
export async function uploadTicketImage(file: File, ticketId?: string): Promise<TicketImageResult['image']> {
  const path = `/tickets/images${ticketId ? `?ticket_id=${enc(ticketId)}` : ''}`;
  const form = () => {
    const data = new FormData();
    data.append('image', file);
    return data;
  };
  let response = await postForm(path, form());
  let body = (await response.json().catch(() => undefined)) as ErrorBody | TicketImageResult | undefined;
  // A token from before a sign-in elsewhere in this browser: a fresh one, and once more.
  if (response.status === 403 && (body as ErrorBody | undefined)?.error === 'csrf') {
    await api('GET', '/auth/csrf');
    response = await postForm(path, form());
    body = (await response.json().catch(() => undefined)) as ErrorBody | TicketImageResult | undefined;
  }
  if (!response.ok) {
    const error = body && 'message' in body ? body : { message: TICKET_MESSAGES.fallback };
    throw new ApiError(response.status, error);
  }
  return (body as TicketImageResult).image;
}

/** Spec 8: the server's error body, else "Something went wrong". */
export const ticketErrorText = (error: unknown) =>
  error instanceof ApiError ? error.display : TICKET_MESSAGES.fallback;

/** Runs a send; anything but the server's own refusal reads "Something went wrong" (spec 8). */
export async function withFallback<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    throw error instanceof ApiError ? error : new Error(TICKET_MESSAGES.fallback);
  }
}

export const refreshTickets = (queryClient: QueryClient) =>
  queryClient.invalidateQueries({ queryKey: ['tickets'] });
