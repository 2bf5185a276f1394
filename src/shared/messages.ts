// Every visible string the specification quotes lives here, verbatim, plus the ones we wrote for the
// screens it leaves open. Screens import from here; nothing re-types a spec string.

export const DIALOG = {
  successTitle: 'Successful',
  goBack: 'Go back',
  errorTitle: 'Error',
  errorHeading: 'Something went Wrong!',
  close: 'Close',
  deleteQuestion: 'Are you sure you want to delete this item?',
  delete: 'Delete',
} as const;

export const GENERIC = {
  somethingWentWrong: 'Something went wrong',
  internal:
    'The server could not finish this just now. Please try again in a minute; if it keeps happening, tell Support.',
  /** No answer while the device says it is offline. */
  offline: 'You are offline. Connect to the internet, then try again.',
  /** No answer while the device says it is online: the server or the way to it is down. */
  noAnswer: 'The server did not answer. Check your connection, then try again.',
  notFound: 'Not found',
  tooManyRequests: 'Too many attempts. Please wait and try again.',
  csrf: 'Your session token is missing or out of date. Please reload the page and try again.',
  notSignedIn: 'Please sign in to continue.',
  forbidden: 'You are not allowed to do this.',
  invalidInput: 'Invalid input',
  invalidJson: 'The request body is not valid JSON.',
  bodyNotObject: 'The request body must be a JSON object.',
  textCharacters: 'Remove the control characters (or broken characters) from this text.',
} as const;

export const AUTH = {
  invalidCredentials: 'Invalid email or password',
  blocked: 'Your account is blocked. Please contact support.',
  registered: 'Registration successful. You can now sign in.',
  signedOut: 'You have been signed out.',
  signOutWithPost: 'Sign out with POST and the X-XSRF-TOKEN header; a GET signs nobody out.',
  sessionExpired: 'Your session has expired. Please sign in again.',
  usernameTaken: 'This username is already taken.',
  emailTaken: 'An account with this e-mail already exists.',
  referralUnknown: 'No member has this referral code.',
  fullnameRequired: 'Full name is required',
  fullnameTooLong: 'Full name cannot exceed 100 characters',
  usernameInvalid: 'Username must be 3 to 30 letters, digits or underscores',
  emailRequired: 'Email is required',
  emailInvalid: 'Please enter a valid email address',
  phoneInvalid: 'Please enter a valid phone number (7 to 15 digits, optional leading +)',
  passwordRequired: 'Password is required',
  passwordTooShort: 'Password must be at least 10 characters',
  passwordTooLong: 'Password cannot exceed 128 characters',
  passwordCommon: 'This password is too common. Please choose another one.',
  referralInvalid: 'Referral codes are 6 to 12 letters or digits',
} as const;

/** Spec 4 session texts we show; the spec fixes the transitions, not these words. */
export const SESSION = {
  unauthorizedTitle: 'Access denied',
  unauthorizedText: 'Your account cannot open this page.',
  notFoundTitle: 'Page not found',
  notFoundText: 'We could not find the page you asked for.',
  fallbackTitle: 'Something went wrong',
  fallbackText: 'The app hit an unexpected error. Reload the page to continue.',
} as const;

/** Shown on every public page: trading can lose money, nothing promises a return. */
export const RISK_DISCLAIMER =
  'Risk warning: cryptocurrency trading involves significant risk. Prices can fall as well as rise and you can lose some or all of the money you put in. Past returns promise nothing about the future. Trade responsibly and only with money you can afford to lose.';

/** Image uploads (banner, ticket images): what a person reads when a file is refused. */
export const UPLOADS = {
  notAnImage: 'The file is not a PNG, JPEG or WebP image.',
  tooLarge: 'The image is larger than 5 MB.',
  tooManyPixels: 'The image is larger than 40 megapixels.',
  missing: 'Choose an image file to upload.',
  notMultipart: 'Send the image as multipart/form-data.',
} as const;
