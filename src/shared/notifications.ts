import * as v from 'valibot';
import { formatUsd } from './money.ts';
import { multiLineText, oneLineText } from './text.ts';

// Notifications (spec 2 "Admin Create Notification" / "Admin notification list", spec 3, 4, 5, 7, 8;
// RULES.md "Notifications and tickets"). The admin form and the server validate with the same schema.
// Decided here where the spec is silent:
// - users = true reaches every member registered when it is sent (not members who join later);
//   users = false reaches the chosen recipients (member ids).
// - Seen is per member: opening a notification marks it seen for that member only; seen_at is the
//   first time. A site_popup shows as a pop-up until the member has seen it, so once.
// - id and notification_id are the same value: the notification's id (the spec lists both).
// - GET /notifications: an admin gets every notification; a member gets their own (as /user/{id}).
// - The banner is the newest image uploaded with POST /notifications/banner; it shows on the member
//   dashboard until a newer one replaces it.
// - Issue 22: the app itself tells a member about money received, a deposit credited, a balance
//   adjusted by support and a ticket answered ('system' notifications, each with a link that opens what
//   it is about); what an admin sends is a 'broadcast' with no link. An adjustment's reason is support's
//   note for the audit log and is not shown to the member.

export const NOTIFICATION_TYPES = ['notification', 'site_popup'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];
export const NOTIFICATION_ORIGINS = ['broadcast', 'system'] as const;
export type NotificationOrigin = (typeof NOTIFICATION_ORIGINS)[number];

/**
 * A notification's link: a path inside the member's app, nothing else. It must read the same after the
 * browser resolves it (no scheme, host, "//", dot segments or encoded dots that would leave /user/).
 */
const LINK_PATTERN = /^\/user\/[A-Za-z0-9\-._~%/?=&]*$/;
export const MAX_NOTIFICATION_LINK_LENGTH = 300;
export function isMemberLink(link: string): boolean {
  if (link.length > MAX_NOTIFICATION_LINK_LENGTH || !LINK_PATTERN.test(link) || link.includes('//'))
    return false;
  const base = 'https://app.invalid';
  const resolved = new URL(link, base);
  return (
    resolved.origin === base &&
    resolved.pathname.startsWith('/user/') &&
    `${resolved.pathname}${resolved.search}` === link
  );
}

/** Where each system notification leads. */
export const NOTIFICATION_LINKS = {
  moneyReceived: '/user/transfer?tab=received',
  depositCredited: '/user/deposit-history',
  balanceAdjusted: '/user/dashboard',
  withdrawal: '/user/withdrawal',
  ticket: (ticketId: string) => `/user/queries/${encodeURIComponent(ticketId)}`,
} as const;

/** The texts of the system notifications about money (amounts are formatted decimal strings). */
export const MONEY_NOTIFICATIONS = {
  moneyReceivedTitle: 'Money received',
  moneyReceived: (input: {
    senderName: string;
    amount: string;
    wallet: string;
    description: string | null;
  }) =>
    `${input.senderName} sent you ${formatUsd(input.amount)} to your ${input.wallet}.` +
    (input.description ? ` Note: "${input.description}"` : ''),
  depositCreditedTitle: 'Deposit credited',
  depositCredited: (input: { amount: string; paymentId: string; wallet: string }) =>
    `${formatUsd(input.amount)} from your crypto payment ${input.paymentId} was added to your ${input.wallet}.`,
  partialDepositCredited: (input: { amount: string; paymentId: string; wallet: string }) =>
    `Support credited ${formatUsd(input.amount)} for your partially paid crypto payment ${input.paymentId} to your ${input.wallet}.`,
  balanceAdjustedTitle: 'Balance adjusted by support',
  balanceAdjusted: (input: { direction: 'credit' | 'debit'; amount: string; wallet: string }) =>
    input.direction === 'credit'
      ? `Support added ${formatUsd(input.amount)} to your ${input.wallet}. Questions? Open a support ticket.`
      : `Support deducted ${formatUsd(input.amount)} from your ${input.wallet}. Questions? Open a support ticket.`,
  withdrawalApprovedTitle: 'Withdrawal paid',
  withdrawalApproved: (input: { amount: string; net: string; txHash: string }) =>
    `Your withdrawal of ${formatUsd(input.amount)} was approved: ${formatUsd(input.net)} was sent to your payout address (transaction ${input.txHash}).`,
  compoundApprovedTitle: 'Compound approved',
  compoundApproved: (input: { amount: string; plan: string }) =>
    `Your compound of ${formatUsd(input.amount)} was approved: it is now a new investment in ${input.plan}.`,
  withdrawalRejectedTitle: 'Withdrawal rejected',
  withdrawalRejected: (input: { amount: string; reason: string }) =>
    `Your request of ${formatUsd(input.amount)} was rejected and the money is available in your balance again. Reason: ${input.reason}`,
} as const;

export const MAX_NOTIFICATION_TITLE_LENGTH = 200;
export const MAX_NOTIFICATION_MESSAGE_LENGTH = 2000;
export const MAX_NOTIFICATION_RECIPIENTS = 1000;
/** The admin form's user search: at most this many results for an e-mail fragment. */
export const RECIPIENT_SEARCH_LIMIT = 20;

export const NOTIFICATION_MESSAGES = {
  // spec 5
  titleRequired: 'Title is required',
  messageRequired: 'Message is required',
  typeRequired: 'Type is required',
  invalidType: 'Invalid type',
  // spec 8
  created: 'Notification created successfully!',
  bannerCreated: 'Banner created successfully!',
  deleted: 'Notification deleted successfully!',
  // ours
  titleTooLong: `Title cannot exceed ${MAX_NOTIFICATION_TITLE_LENGTH} characters`,
  messageTooLong: `Message cannot exceed ${MAX_NOTIFICATION_MESSAGE_LENGTH} characters`,
  recipientsRequired: 'Choose at least one user, or tick All Users',
  tooManyRecipients: `Choose at most ${MAX_NOTIFICATION_RECIPIENTS} users, or tick All Users`,
  recipientUnknown: 'One of the chosen users is not a member',
  notFound: 'Notification not found',
  markedSeen: 'Notification marked as seen',
  adminsHaveNone: 'Notifications are for members',
  // screens
  createTitle: 'Create Notification',
  listTitle: 'Notifications',
  memberTitle: 'Notifications',
  allUsers: 'All Users',
  // A notification to all users is shown to the members registered when it is sent (docs/rules.md).
  allUsersReach: 'Reaches every member registered when you send it. Members who join later will not see it.',
  searchUsers: 'Search users by e-mail',
  searching: 'Searching users...',
  noUsersFound: 'No users found',
  selectedUsers: 'Selected users',
  noSelectedUsers: 'No users selected',
  banner: 'Banner image',
  bannerUploading: 'Uploading banner...',
  submit: 'Create Notification',
  submitting: 'Creating...',
  empty: 'No notifications yet',
  listEmpty: 'No notifications have been sent',
  unread: 'Unread',
  newNotification: 'New notification',
  loading: 'Loading notifications...',
  markSeen: 'Mark as read',
  popupClose: 'Got it',
  bellLabel: 'Notifications',
  open: 'Open',
  // the admin list (issue 22 item 3)
  broadcastsTitle: 'Sent by admins',
  broadcastsEmpty: 'No notifications have been sent',
  systemTitle: 'Sent by the app to one member',
  systemHint: 'Ticket answers and money events, written automatically for the member concerned.',
  systemEmpty: 'No automatic notifications yet',
  recipientsAll: 'All users registered when sent',
  recipientsCount: (count: number) => `${count} ${count === 1 ? 'user' : 'users'}`,
  deletedMember: 'Deleted member',
  searchList: 'Search title, message or recipient',
} as const;

const requiredText = (message: string, max: number, tooLong: string, lines: 'one' | 'multi') =>
  v.pipe(
    v.string(message),
    v.trim(),
    v.nonEmpty(message),
    v.maxLength(max, tooLong),
    lines === 'one' ? oneLineText() : multiLineText(),
  );

/**
 * Spec 3/5/7: {title, message, users, type, recipients}. users defaults to true, type to notification;
 * with users = true the recipients are cleared; with users = false at least one is needed.
 */
export const createNotificationSchema = v.pipe(
  v.object({
    title: requiredText(
      NOTIFICATION_MESSAGES.titleRequired,
      MAX_NOTIFICATION_TITLE_LENGTH,
      NOTIFICATION_MESSAGES.titleTooLong,
      'one',
    ),
    message: requiredText(
      NOTIFICATION_MESSAGES.messageRequired,
      MAX_NOTIFICATION_MESSAGE_LENGTH,
      NOTIFICATION_MESSAGES.messageTooLong,
      'multi',
    ),
    users: v.optional(v.boolean(), true),
    type: v.optional(
      v.pipe(
        v.string(NOTIFICATION_MESSAGES.typeRequired),
        v.nonEmpty(NOTIFICATION_MESSAGES.typeRequired),
        v.picklist(NOTIFICATION_TYPES, NOTIFICATION_MESSAGES.invalidType),
      ),
      'notification',
    ),
    recipients: v.optional(
      v.pipe(
        v.array(v.pipe(v.string(), v.nonEmpty(), v.maxLength(64))),
        v.maxLength(MAX_NOTIFICATION_RECIPIENTS, NOTIFICATION_MESSAGES.tooManyRecipients),
      ),
      [],
    ),
  }),
  v.forward(
    v.check((input) => input.users || input.recipients.length > 0, NOTIFICATION_MESSAGES.recipientsRequired),
    ['recipients'],
  ),
  v.transform((input) => ({
    ...input,
    type: input.type as NotificationType,
    recipients: input.users ? [] : [...new Set(input.recipients)],
  })),
);
export type CreateNotificationInput = v.InferOutput<typeof createNotificationSchema>;

export const markSeenSchema = v.object({ userId: v.optional(v.string()) });

const notificationFields = {
  id: v.string(),
  notification_id: v.string(),
  title: v.string(),
  message: v.string(),
  users: v.boolean(),
  type: v.picklist(NOTIFICATION_TYPES),
  created_at: v.string(),
  /** Ours (issue 22): the path under /user/ this notification opens, or null. */
  link: v.nullable(v.string()),
};

/** Spec 3 "Notification" as a member reads it. */
export const memberNotificationSchema = v.object({
  ...notificationFields,
  seen: v.boolean(),
  seen_at: v.nullable(v.string()),
});
export type MemberNotification = v.InferOutput<typeof memberNotificationSchema>;

export const recipientLabelSchema = v.object({ id: v.string(), fullname: v.string(), email: v.string() });
export type RecipientLabel = v.InferOutput<typeof recipientLabelSchema>;
/** How many chosen recipients the admin list names; the rest are counted. */
export const RECIPIENT_PREVIEW_LIMIT = 3;

/**
 * Spec 3 "Notification" as an admin reads it (the list screen and the create answer), with ours:
 * origin, and the first chosen recipients by name (recipients keeps every id).
 */
export const adminNotificationSchema = v.object({
  ...notificationFields,
  recipients: v.array(v.string()),
  origin: v.picklist(NOTIFICATION_ORIGINS),
  recipient_preview: v.array(recipientLabelSchema),
});
export type AdminNotification = v.InferOutput<typeof adminNotificationSchema>;

export const bannerSchema = v.object({ name: v.string(), url: v.string(), created_at: v.string() });
export type Banner = v.InferOutput<typeof bannerSchema>;

export const recipientCandidateSchema = v.object({
  id: v.string(),
  fullname: v.string(),
  username: v.string(),
  email: v.string(),
});
export type RecipientCandidate = v.InferOutput<typeof recipientCandidateSchema>;

/** GET /notifications/home: what the member's header and pop-up need. */
export const notificationsHomeSchema = v.object({
  unread: v.number(),
  popups: v.array(memberNotificationSchema),
});
export type NotificationsHome = v.InferOutput<typeof notificationsHomeSchema>;

export const notificationIdParamsSchema = v.object({ id: v.pipe(v.string(), v.maxLength(64)) });
export const recipientSearchQuerySchema = v.object({
  email: v.optional(v.pipe(v.string(), v.maxLength(254)), ''),
});
