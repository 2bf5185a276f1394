// Business constants of spec section 9, plus the session rules we chose (see docs/api.md "Sessions").

export const MAX_TRANSFER_AMOUNT_CENTS = 1_000_000;
export const MAX_TRANSFER_DESCRIPTION_LENGTH = 200;
export const RECIPIENT_SEARCH_DELAY_MS = 1000;
export const PAYMENT_POLL_INTERVAL_MS = 10_000;
export const QR_SIZE_PX = 250;
export const COPIED_LABEL_MS = 2000;
export const TRANSACTION_PAGE_DEFAULT = 1;
export const TRANSACTION_LIMIT_DEFAULT = 10;
export const RECENT_ACTIVITY_COUNT = 5;
export const MESSAGE_AUTO_CLEAR_MS = 3000;
export const HEADER_SCROLL_THRESHOLD_PX = 50;
export const PERSIST_RESTORE_TIMEOUT_MS = 5000;
/** localStorage key of the persisted client state (spec 3). */
export const PERSIST_STORAGE_KEY = 'root';

/** Toast defaults of spec 9. */
export const TOAST_DURATION_MS = 4000;
export const TOAST_SUCCESS_DURATION_MS = 2000;
export const TOAST_LIMIT = 20;
export const TOAST_MAX_WIDTH_PX = 350;

export const PASSWORD_MIN_LENGTH = 10;
export const PASSWORD_MAX_LENGTH = 128;
export const USERNAME_PATTERN = /^[A-Za-z0-9_]{3,30}$/;

export const CSRF_COOKIE = 'XSRF-TOKEN';
export const CSRF_HEADER = 'x-xsrf-token';
/** The session cookie over http (local development). */
export const SESSION_COOKIE = 'sid';
/** The session cookie over https: the __Host- prefix makes the browser take it only Secure, on Path=/, without Domain. */
export const SECURE_SESSION_COOKIE = '__Host-sid';

export const API_BASE = '/api/v1';
