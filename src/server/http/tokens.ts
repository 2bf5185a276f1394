import { createHash, randomBytes } from 'node:crypto';

/** A session cookie's value: 256 random bits. */
export const newToken = () => randomBytes(32).toString('base64url');
/** What the database keeps of a token: a stolen table does not yield live cookies. */
export const hashToken = (token: string) => createHash('sha256').update(token).digest('hex');
