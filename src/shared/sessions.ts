import * as v from 'valibot';

// Issue 14, item 5: a member (or an admin) sees where they are signed in and ends any other session.
// A session is named by a handle derived from its stored id: neither the cookie's token nor the key the
// server looks sessions up by ever leaves the server.

export const SESSIONS = {
  ended: 'That device is signed out.',
  othersEnded: 'Every other device is signed out.',
  notFound: 'That session has already ended.',
  current: 'This is the device you are using. Use Sign out to end this session.',
} as const;

export const SESSIONS_TEXT = {
  title: 'Signed-in devices',
  intro:
    'Where your account is signed in now. Sign out any device you do not recognise, then change your password.',
  thisDevice: 'This device',
  signedInAt: 'Signed in',
  address: 'Address',
  endOne: 'Sign out',
  endOthers: 'Sign out every other device',
  none: 'No other device is signed in.',
  loadError: 'Your sessions could not be loaded.',
} as const;

export const deviceSessionSchema = v.object({
  id: v.string(),
  /** A person's name for the browser and system ("Chrome on Android"), or "Unknown device". */
  device: v.string(),
  ip: v.nullable(v.string()),
  created_at: v.string(),
  expires_at: v.string(),
  current: v.boolean(),
});
export type DeviceSession = v.InferOutput<typeof deviceSessionSchema>;

export const deviceSessionsSchema = v.object({ sessions: v.array(deviceSessionSchema) });

export const sessionHandleParamsSchema = v.object({
  id: v.pipe(v.string(), v.regex(/^[0-9a-f]{32}$/, SESSIONS.notFound)),
});

export const endedSessionsSchema = v.object({ message: v.string(), ended: v.number() });
