import * as v from 'valibot';
import { TICKET_SEARCH_MAX, TICKET_STATUSES } from './enums.ts';
import { GENERIC } from './messages.ts';
import { multiLineText, oneLineText } from './text.ts';

export { TICKET_SEARCH_MAX, TICKET_STATUSES };

// Support tickets (spec 2 member and admin routes, spec 3 "Ticket", spec 4 "Tickets", spec 7 "Tickets"
// and "Support", spec 8; RULES.md "Notifications and tickets"). The forms and the server validate with
// the same schemas. The rules we chose are in docs/rules.md ("Support tickets").

export type TicketStatus = (typeof TICKET_STATUSES)[number];

export const TICKET_STATUS_LABELS: Record<TicketStatus, string> = {
  open: 'Open',
  in_progress: 'In progress',
  resolved: 'Resolved',
  closed: 'Closed',
};
export const ticketStatusLabel = (status: string) => TICKET_STATUS_LABELS[status as TicketStatus] ?? status;

/** Badge colours: waiting for support blue, being worked on yellow, resolved green, closed grey. */
export function ticketBadgeColour(status: string): 'blue' | 'yellow' | 'green' | 'grey' {
  if (status === 'open') return 'blue';
  if (status === 'in_progress') return 'yellow';
  if (status === 'resolved') return 'green';
  return 'grey';
}

/** Spec: "not shown"; the topics a member of this platform asks about. */
export const TICKET_CATEGORIES = [
  'account',
  'deposit',
  'withdrawal',
  'transfer',
  'investment',
  'technical',
  'other',
] as const;
export type TicketCategory = (typeof TICKET_CATEGORIES)[number];
export const TICKET_CATEGORY_LABELS: Record<TicketCategory, string> = {
  account: 'Account and sign-in',
  deposit: 'Deposits and payments',
  withdrawal: 'Withdrawals',
  transfer: 'Transfers',
  investment: 'Plans and income',
  technical: 'Technical problem',
  other: 'Something else',
};
export const ticketCategoryLabel = (category: string) =>
  TICKET_CATEGORY_LABELS[category as TicketCategory] ?? category;

export const TICKET_SUBJECT_MAX = 150;
export const TICKET_MESSAGE_MAX = 5000;
/** Per person and hour: enough for anyone with a real problem, not enough to flood support or the disk. */
export const TICKETS_PER_HOUR = 20;
export const TICKET_IMAGES_PER_HOUR = 30;

export const TICKET_MESSAGES = {
  // Spec 4 and 8, verbatim.
  created: 'Ticket created successfully!',
  responseAdded: 'Response added successfully!',
  statusUpdated: 'Ticket status updated successfully!',
  fallback: GENERIC.somethingWentWrong,
  // Ours (spec: not shown).
  subjectRequired: 'Subject is required',
  subjectTooLong: `Subject cannot exceed ${TICKET_SUBJECT_MAX} characters`,
  categoryRequired: 'Please select a category',
  messageRequired: 'Message is required',
  messageTooLong: `Message cannot exceed ${TICKET_MESSAGE_MAX} characters`,
  statusInvalid: 'Choose open, in progress, resolved or closed',
  searchTooLong: `Search for at most ${TICKET_SEARCH_MAX} characters`,
  imageRequired: 'Choose an image to upload',
  imageUnknown: 'This image was not uploaded for your ticket. Please attach it again.',
  notFound: 'No ticket with this id',
  memberNotFound: 'No tickets for this member',
  membersOnly: 'Support tickets are opened by members',
  memberMayOnlyClose: 'You can close your ticket; support changes its other statuses',
  closedNoResponses: 'This ticket is closed and takes no new answers. Please open a new ticket.',
  closed: 'Ticket closed successfully!',
  noTickets: "You haven't opened a support ticket yet.",
  noTicketsAdmin: 'No tickets match.',
  noResponses: 'No answers yet. Support will reply here.',
  loading: 'Loading tickets...',
  supportName: 'Support',
  notifyAnswerTitle: 'Support answered your ticket',
  notifyStatusTitle: 'Your ticket status changed',
} as const;

const text = (required: string, max: number, tooLong: string, lines: 'one' | 'multi') =>
  v.pipe(
    v.string(required),
    v.trim(),
    v.nonEmpty(required),
    v.maxLength(max, tooLong),
    lines === 'one' ? oneLineText() : multiLineText(),
  );

/** An image already uploaded for tickets (POST /tickets/images): its generated name. */
export const ticketImageNameSchema = v.pipe(
  v.string(TICKET_MESSAGES.imageUnknown),
  v.regex(/^[A-Za-z0-9._-]{1,200}$/, TICKET_MESSAGES.imageUnknown),
);

/** POST /tickets (and /support/add): the member's new ticket. */
export const ticketCreateSchema = v.object({
  subject: text(TICKET_MESSAGES.subjectRequired, TICKET_SUBJECT_MAX, TICKET_MESSAGES.subjectTooLong, 'one'),
  category: v.picklist(TICKET_CATEGORIES, TICKET_MESSAGES.categoryRequired),
  message: text(TICKET_MESSAGES.messageRequired, TICKET_MESSAGE_MAX, TICKET_MESSAGES.messageTooLong, 'multi'),
  image: v.optional(ticketImageNameSchema),
});
export type TicketCreate = v.InferOutput<typeof ticketCreateSchema>;

/** POST /tickets/{ticketId}/responses: an answer in the thread (member or support). */
export const ticketResponseCreateSchema = v.object({
  message: text(TICKET_MESSAGES.messageRequired, TICKET_MESSAGE_MAX, TICKET_MESSAGES.messageTooLong, 'multi'),
  image: v.optional(ticketImageNameSchema),
});
export type TicketResponseCreate = v.InferOutput<typeof ticketResponseCreateSchema>;

/** PUT /tickets/{ticketId}/status and PUT /support/{id}. */
export const ticketStatusUpdateSchema = v.object({
  status: v.picklist(TICKET_STATUSES, TICKET_MESSAGES.statusInvalid),
});
export type TicketStatusUpdate = v.InferOutput<typeof ticketStatusUpdateSchema>;

export const ticketIdParamsSchema = v.object({ ticketId: v.pipe(v.string(), v.nonEmpty()) });
export const supportIdParamsSchema = v.object({ id: v.pipe(v.string(), v.nonEmpty()) });
export const ticketUserParamsSchema = v.object({ userId: v.pipe(v.string(), v.nonEmpty()) });

const pageNumber = (fallback: string, max?: number) =>
  v.optional(
    v.pipe(
      v.string(),
      v.toNumber(),
      v.integer('Use a whole number'),
      v.minValue(1, 'Use a number of 1 or more'),
      v.maxValue(max ?? Number.MAX_SAFE_INTEGER, `Use a number of at most ${max}`),
    ),
    fallback,
  );

/** GET /tickets (admin): by status, by a search over id, subject, message and the member, a page at a time. */
export const ticketListQuerySchema = v.object({
  status: v.optional(v.picklist(TICKET_STATUSES, TICKET_MESSAGES.statusInvalid)),
  search: v.optional(
    v.pipe(v.string(), v.trim(), v.maxLength(TICKET_SEARCH_MAX, TICKET_MESSAGES.searchTooLong)),
  ),
  page: pageNumber('1'),
  limit: pageNumber('50', 200),
});
export type TicketListQuery = v.InferOutput<typeof ticketListQuerySchema>;

/** Spec 3 "Ticket": ticket_id and status, plus the fields we chose. */
export const ticketSchema = v.object({
  ticket_id: v.string(),
  status: v.picklist(TICKET_STATUSES),
  user_id: v.string(),
  member_name: v.string(),
  member_email: v.string(),
  subject: v.string(),
  category: v.picklist(TICKET_CATEGORIES),
  message: v.string(),
  /** Where the attached image is served (to the member and admins only), or null. */
  image_url: v.nullable(v.string()),
  /** Who wrote last: the member ('user') or support ('admin'). */
  last_reply_by: v.picklist(['user', 'admin']),
  last_reply_at: v.string(),
  created_at: v.string(),
  updated_at: v.string(),
});
export type Ticket = v.InferOutput<typeof ticketSchema>;

export const ticketResponseSchema = v.object({
  id: v.string(),
  ticket_id: v.string(),
  message: v.string(),
  image_url: v.nullable(v.string()),
  author_role: v.picklist(['user', 'admin']),
  /** The member's name, or "Support" for an admin's answer as a member reads it. */
  author_name: v.string(),
  created_at: v.string(),
});
export type TicketResponse = v.InferOutput<typeof ticketResponseSchema>;

export const ticketResultSchema = v.object({ message: v.string(), ticket: ticketSchema });
export type TicketResult = v.InferOutput<typeof ticketResultSchema>;
export const ticketResponseResultSchema = v.object({
  message: v.string(),
  response: ticketResponseSchema,
  ticket: ticketSchema,
});
export type TicketResponseResult = v.InferOutput<typeof ticketResponseResultSchema>;
export const singleTicketSchema = v.object({ ticket: ticketSchema });
export const ticketListSchema = v.object({ tickets: v.array(ticketSchema) });
export type TicketList = v.InferOutput<typeof ticketListSchema>;
export const adminTicketListSchema = v.object({
  tickets: v.array(ticketSchema),
  total: v.number(),
  page: v.number(),
  limit: v.number(),
});
export type AdminTicketList = v.InferOutput<typeof adminTicketListSchema>;
export const ticketResponsesSchema = v.object({ responses: v.array(ticketResponseSchema) });
export type TicketResponses = v.InferOutput<typeof ticketResponsesSchema>;
export const ticketImageResultSchema = v.object({ image: v.object({ name: v.string(), url: v.string() }) });
export type TicketImageResult = v.InferOutput<typeof ticketImageResultSchema>;

/**
 * The status after an answer (docs/rules.md "Support tickets"): a member's answer reopens a resolved ticket;
 * support's first answer on an open ticket puts it in progress; a closed ticket takes no answers.
 */
export function statusAfterResponse(status: TicketStatus, by: 'user' | 'admin'): TicketStatus | 'refused' {
  if (status === 'closed') return 'refused';
  if (by === 'user' && status === 'resolved') return 'open';
  if (by === 'admin' && status === 'open') return 'in_progress';
  return status;
}
