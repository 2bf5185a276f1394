import { queryOptions, useQueryClient } from '@tanstack/react-query';
import type { MemberSession } from '../../../shared/auth.ts';
import type { OtpSendInput, Profile } from '../../../shared/profile.ts';
import { api } from '../../lib/http.ts';

// The member's profile (issue 14): GET/PUT /profile and the e-mailed code that guards an address change.

type Message = { message: string };
export type MemberAuth = MemberSession['auth'];
export type ProfileUpdate = {
  fullname?: string;
  phone?: string;
  bep20?: string | null;
  trc20?: string | null;
  otp?: string;
};

export const profileQuery = queryOptions({
  queryKey: ['profile'],
  queryFn: async () => (await api<{ profile: Profile }>('GET', '/profile')).profile,
});

export const updateProfile = (input: ProfileUpdate) =>
  api<Message & { auth: MemberAuth }>('PUT', '/profile', input);
export const sendOtp = (input: OtpSendInput) => api<Message>('POST', '/otp/send', input);

/**
 * Saves, refreshes the profile, and hands the new `auth` to `onAuth` (the route keeps the session,
 * which the header's name reads); answers the server's message.
 */
export function useSaveProfile(onAuth: (auth: MemberAuth) => void) {
  const queryClient = useQueryClient();
  return async (input: ProfileUpdate): Promise<string> => {
    const { message, auth } = await updateProfile(input);
    onAuth(auth);
    await queryClient.invalidateQueries({ queryKey: profileQuery.queryKey });
    return message;
  };
}
