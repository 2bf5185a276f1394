import * as v from 'valibot';

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

export const NOTIFICATION_TYPES = ['notification', 'site_popup'] as const;
export type NotificationType = (typeof NOTIFICATION_TYPES)[number];

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
} as const;

const requiredText = (message: string, max: number, tooLong: string) =>
  v.pipe(v.string(message), v.trim(), v.nonEmpty(message), v.maxLength(max, tooLong));

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
    ),
    message: requiredText(
      NOTIFICATION_MESSAGES.messageRequired,
      MAX_NOTIFICATION_MESSAGE_LENGTH,
      NOTIFICATION_MESSAGES.messageTooLong,
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
};

/** Spec 3 "Notification" as a member reads it. */
export const memberNotificationSchema = v.object({
  ...notificationFields,
  seen: v.boolean(),
  seen_at: v.nullable(v.string()),
});
export type MemberNotification = v.InferOutput<typeof memberNotificationSchema>;

/** Spec 3 "Notification" as an admin reads it (the list screen and the create answer). */
export const adminNotificationSchema = v.object({ ...notificationFields, recipients: v.array(v.string()) });
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
