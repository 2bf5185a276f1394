import { queryOptions } from '@tanstack/react-query';
import type {
  ChangePasswordInput,
  ForgotPasswordInput,
  ResetPasswordInput,
  VerifyCodeInput,
} from '../../../shared/account.ts';
import type {
  CodeInput,
  TwoFactorEnabled,
  TwoFactorSetup,
  TwoFactorStatus,
} from '../../../shared/two-factor.ts';
import { api } from '../../lib/http.ts';

type Message = { message: string };

export const askForResetLink = (input: ForgotPasswordInput) => api<Message>('POST', '/pass/forget', input);
export const setNewPassword = (input: ResetPasswordInput) => api<Message>('POST', '/pass/reset', input);
export const changePassword = (input: ChangePasswordInput) =>
  api<Message>('POST', '/auth/change-password', input);
export const sendVerificationCode = () => api<Message>('POST', '/auth/email-verification');
export const verifyEmail = (input: VerifyCodeInput) => api<Message>('POST', '/auth/verify-user', input);

// Two-factor sign-in (issue 14 item 4): the card on the profile and on the admin settings page.
export const twoFactorStatusQuery = queryOptions({
  queryKey: ['two-factor'],
  queryFn: () => api<TwoFactorStatus>('GET', '/two-factor'),
});
export const startTwoFactorSetup = () => api<TwoFactorSetup>('POST', '/two-factor/setup');
export const confirmTwoFactor = (input: CodeInput) =>
  api<TwoFactorEnabled>('POST', '/two-factor/confirm', input);
export const turnOffTwoFactor = (input: CodeInput) => api<Message>('POST', '/two-factor/disable', input);

export { saveSettings, settingsQuery } from '../../lib/settings.ts';
