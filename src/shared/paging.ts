import * as v from 'valibot';

// Paged lists: the ?page&limit query and the { data, total, total_pages, current_page } answer, one
// shape for every list that pages.

/** A whole-number query parameter (a string of 1 to 6 digits) from `min` to `max`; one message for any fault. */
export const wholeNumberQuery = (message: string, min: number, max: number) =>
  v.pipe(
    v.string(message),
    v.regex(/^\d{1,6}$/, message),
    v.transform(Number),
    v.minValue(min, message),
    v.maxValue(max, message),
  );

/**
 * ?page (from 1, default 1) and ?limit (1 to 100, default `defaultLimit`), each with its list's message:
 * the entries to spread into the list's query object.
 */
export const pageQuery = (messages: { pageInvalid: string; limitInvalid: string }, defaultLimit: string) => ({
  page: v.optional(wholeNumberQuery(messages.pageInvalid, 1, 999_999), '1'),
  limit: v.optional(wholeNumberQuery(messages.limitInvalid, 1, 100), defaultLimit),
});

/** A page of a list: its rows, how many rows in all, how many pages (at least 1), which page this is. */
export const pagedList = <T extends v.GenericSchema>(item: T) =>
  v.object({
    data: v.array(item),
    total: v.number(),
    total_pages: v.number(),
    current_page: v.number(),
  });
export type PagedList<T> = { data: T[]; total: number; total_pages: number; current_page: number };
