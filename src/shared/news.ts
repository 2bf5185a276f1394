import * as v from 'valibot';
import { multiLineText, oneLineText } from './text.ts';

// News (issue 19 item 4, docs/rules.md "News and QR links"): an admin writes a title, a body and an
// optional picture, keeps it as a draft or publishes it; members read published news only, newest
// first. The picture is uploaded first (POST /news/images) and named in the add or change, as the
// achievers' photos are.

export const NEWS_MESSAGES = {
  created: 'News saved',
  updated: 'News updated',
  deleted: 'News deleted',
  titleRequired: 'Title is required (at most 120 characters)',
  bodyRequired: 'Text is required (at most 10000 characters)',
  imageUnknown: 'This picture was not uploaded here; upload it again',
  publishedInvalid: 'published must be true or false',
  notFound: 'No news with this id',
  nothingToChange: 'Send at least one field to change',
  limitInvalid: 'limit must be a whole number from 1 to 100',
  empty: 'No news yet.',
} as const;
const M = NEWS_MESSAGES;

export const NEWS_TITLE_MAX = 120;
export const NEWS_BODY_MAX = 10_000;
/** The most a list answers (newest first). */
export const NEWS_LIST_MAX = 100;

const text = (message: string, max: number, lines: 'one' | 'multi') =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.minLength(1, message),
    v.maxLength(max, message),
    lines === 'one' ? oneLineText() : multiLineText(),
  );
const title = text(M.titleRequired, NEWS_TITLE_MAX, 'one');
const body = text(M.bodyRequired, NEWS_BODY_MAX, 'multi');
/** An uploaded picture's name; empty or null is no picture. */
const image = v.optional(
  v.pipe(
    v.nullable(v.string(M.imageUnknown)),
    v.transform((s) => (s === null ? null : s.trim() || null)),
  ),
);
const published = v.boolean(M.publishedInvalid);

/** POST /news/add (admin): a draft unless `published` is true. */
export const newsInputSchema = v.object({ title, body, image, published: v.optional(published, false) });
export type NewsInput = v.InferOutput<typeof newsInputSchema>;

/** PUT /news/{id} (admin): any of the fields; `image: null` removes the picture. */
export const newsUpdateSchema = v.object({
  title: v.optional(title),
  body: v.optional(body),
  image,
  published: v.optional(published),
});
export type NewsUpdate = v.InferOutput<typeof newsUpdateSchema>;

export const newsListQuerySchema = v.object({
  limit: v.optional(
    v.pipe(
      v.string(M.limitInvalid),
      v.regex(/^\d{1,3}$/, M.limitInvalid),
      v.transform(Number),
      v.minValue(1, M.limitInvalid),
      v.maxValue(NEWS_LIST_MAX, M.limitInvalid),
    ),
  ),
});

export const newsSchema = v.object({
  id: v.string(),
  title: v.string(),
  body: v.string(),
  image_url: v.nullable(v.string()),
  published: v.boolean(),
  published_at: v.nullable(v.string()),
  created_at: v.string(),
  updated_at: v.string(),
});
export type News = v.InferOutput<typeof newsSchema>;
