import { useQuery, useQueryClient } from '@tanstack/react-query';
import { useNavigate } from '@tanstack/react-router';
import { useEffect } from 'react';
import toast from 'react-hot-toast';
import { AUTH } from '../../../shared/messages.ts';
import { adminSessionQuery, clearSession, memberSessionQuery, sessionEndedHere } from './session.ts';

/**
 * Keeps a signed-in area honest: re-asks the server who is signed in (a blocked member or a session
 * ended elsewhere is sent to sign in), and signs out by itself the moment the expiry passes
 * (`expireAt` for a member, `adminExpireAt` for an admin).
 */
function useWatch(signedOut: boolean, expireAt: string | undefined, loginPath: '/login' | '/admin-login') {
  const queryClient = useQueryClient();
  const navigate = useNavigate();

  useEffect(() => {
    // A sign-out here goes to its own page ("You're signed out"): only the server's "nobody" leads here.
    if (!signedOut || sessionEndedHere()) return;
    clearSession(queryClient);
    navigate({ to: loginPath, search: { redirect: window.location.pathname } });
  }, [signedOut, queryClient, navigate, loginPath]);

  useEffect(() => {
    if (!expireAt) return;
    const timer = setTimeout(
      () => {
        clearSession(queryClient);
        toast(AUTH.sessionExpired);
        navigate({ to: loginPath });
      },
      Math.max(0, Date.parse(expireAt) - Date.now()),
    );
    return () => clearTimeout(timer);
  }, [expireAt, queryClient, navigate, loginPath]);
}

export function useMemberSession() {
  const { data } = useQuery(memberSessionQuery);
  useWatch(data === null, data?.expireAt, '/login');
  return data ?? undefined;
}

export function useAdminSession() {
  const { data } = useQuery(adminSessionQuery);
  useWatch(data === null, data?.adminExpireAt, '/admin-login');
  return data ?? undefined;
}
