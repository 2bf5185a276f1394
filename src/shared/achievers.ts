import * as v from 'valibot';
import { oneLineText } from './text.ts';

// Achievers (issue 17 item 4, RULES.md): an admin-curated gallery of photo, name and rank, shown to
// members. The photo is uploaded first (POST /achivers/images) and named in the add, as deposit
// screenshots are.

export const ACHIEVER_MESSAGES = {
  added: 'Achiever added',
  deleted: 'Achiever removed',
  nameRequired: 'Name is required (at most 80 characters)',
  rankRequired: 'Rank is required (at most 60 characters)',
  imageRequired: 'Upload a photo first',
  imageUnknown: 'This photo was not uploaded here; upload it again',
  notFound: 'No achiever with this id',
} as const;

const text = (message: string, max: number) =>
  v.pipe(v.string(message), v.trim(), v.minLength(1, message), v.maxLength(max, message), oneLineText());

export const achieverInputSchema = v.object({
  name: text(ACHIEVER_MESSAGES.nameRequired, 80),
  rank: text(ACHIEVER_MESSAGES.rankRequired, 60),
  image: v.pipe(
    v.string(ACHIEVER_MESSAGES.imageRequired),
    v.trim(),
    v.nonEmpty(ACHIEVER_MESSAGES.imageRequired),
  ),
});
export type AchieverInput = v.InferOutput<typeof achieverInputSchema>;

export const achieverSchema = v.object({
  id: v.string(),
  name: v.string(),
  rank: v.string(),
  image_url: v.string(),
  created_at: v.string(),
});
export type Achiever = v.InferOutput<typeof achieverSchema>;
