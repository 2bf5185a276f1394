import { describe, expect, it } from 'vitest';
import { normalisedPath } from './request-path.ts';

// The path the path-dependent checks judge: the one the router acts on, however the request spells it.

describe('normalisedPath', () => {
  it('decodes percent-encoded letters and slashes, in either case', () => {
    expect(normalisedPath('/%61pi/v1/auth/signin')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/%61%70%69/v1/auth/signin')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/api%2Fv1/auth/signin')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/api%2fv1/auth/signin')).toBe('/api/v1/auth/signin');
  });

  it('resolves repeated slashes and dot segments, encoded or not', () => {
    expect(normalisedPath('//api/v1/auth/signin')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/api/v1/./auth//signin')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/x/../api/v1/auth/signin')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/x/%2e%2e/api/v1/auth/signin')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/../api/v1')).toBe('/api/v1');
  });

  it('reduces the absolute form to its path and drops the query', () => {
    expect(normalisedPath('http://members.example/%61pi/v1/auth/signin?x=1')).toBe('/api/v1/auth/signin');
    expect(normalisedPath('/api/v1/auth/signin?next=/elsewhere')).toBe('/api/v1/auth/signin');
    // An encoded ? is part of the path, not the start of a query.
    expect(normalisedPath('/api/v1/a%3Fb')).toBe('/api/v1/a?b');
  });

  it('keeps what does not decode as it stands, and leaves other paths alone', () => {
    expect(normalisedPath('/api/v1/100%')).toBe('/api/v1/100%');
    expect(normalisedPath('/user/dashboard')).toBe('/user/dashboard');
    expect(normalisedPath('/')).toBe('/');
  });
});
