import Bowser from 'bowser';

const UNKNOWN = 'Unknown device';

/** "Chrome on Android", "Safari on iOS": what a person recognises of a session's user agent. */
export function deviceName(userAgent: string | null): string {
  if (!userAgent) return UNKNOWN;
  // bowser answers an empty name (not undefined) for what it does not know.
  const { browser, os } = Bowser.parse(userAgent);
  if (browser.name && os.name) return `${browser.name} on ${os.name}`;
  return browser.name || os.name || UNKNOWN;
}
