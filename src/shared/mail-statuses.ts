// A mail's statuses, apart from the mail schemas: the /admin/mail route checks its address with them,
// and a route's search check is in the app's main bundle, which every member downloads.

export const MAIL_STATUSES = ['pending', 'sent', 'failed'] as const;
