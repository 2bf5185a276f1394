import * as v from 'valibot';
import { describe, expect, it } from 'vitest';
import { registerSchema, signInSchema } from './auth.ts';
import { issuesToFieldErrors } from './errors.ts';
import { AUTH } from './messages.ts';

const valid = {
  fullname: '  Ada Lovelace ',
  username: 'ada_99',
  email: ' Ada@Example.COM ',
  phone: '+44 (20) 7946-0958',
  password: 'engine-analytical-1843',
};

const fieldErrors = (input: unknown) => {
  const result = v.safeParse(registerSchema, input);
  return result.success
    ? {}
    : Object.fromEntries(issuesToFieldErrors(result.issues).map((e) => [e.field, e.message]));
};

describe('registration schema (shared by the form and the server)', () => {
  it('normalises what a person types: trimmed name, lower-case e-mail, phone without separators', () => {
    const out = v.parse(registerSchema, valid);
    expect(out).toMatchObject({ fullname: 'Ada Lovelace', email: 'ada@example.com', phone: '+442079460958' });
    expect(out.reffer_by).toBeUndefined();
  });

  it('treats an empty referral box as no code and upper-cases a typed one', () => {
    expect(v.parse(registerSchema, { ...valid, reffer_by: '  ' }).reffer_by).toBeUndefined();
    expect(v.parse(registerSchema, { ...valid, reffer_by: 'ab12cd34' }).reffer_by).toBe('AB12CD34');
  });

  it('names each wrong field with the message the screen shows', () => {
    expect(fieldErrors({ ...valid, fullname: '   ' })).toEqual({ fullname: AUTH.fullnameRequired });
    expect(fieldErrors({ ...valid, username: 'ab' })).toEqual({ username: AUTH.usernameInvalid });
    expect(fieldErrors({ ...valid, username: 'has space' })).toEqual({ username: AUTH.usernameInvalid });
    expect(fieldErrors({ ...valid, email: 'not-an-email' })).toEqual({ email: AUTH.emailInvalid });
    expect(fieldErrors({ ...valid, phone: '12ab' })).toEqual({ phone: AUTH.phoneInvalid });
    expect(fieldErrors({ ...valid, password: 'short1' })).toEqual({ password: AUTH.passwordTooShort });
    expect(fieldErrors({ ...valid, password: 'x'.repeat(129) })).toEqual({ password: AUTH.passwordTooLong });
    expect(fieldErrors({ ...valid, reffer_by: 'no!' })).toEqual({ reffer_by: AUTH.referralInvalid });
  });

  it('reports every missing field at once', () => {
    expect(Object.keys(fieldErrors({}))).toEqual(['fullname', 'username', 'email', 'phone', 'password']);
  });
});

describe('sign-in schema', () => {
  it('lower-cases the e-mail and requires a password', () => {
    expect(v.parse(signInSchema, { email: 'X@Y.IO', password: 'p' })).toEqual({
      email: 'x@y.io',
      password: 'p',
    });
    expect(v.safeParse(signInSchema, { email: 'x@y.io', password: '' }).success).toBe(false);
  });
});
