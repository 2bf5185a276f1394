import type { ForgotPasswordInput, ResetPasswordInput, VerifyCodeInput } from '../../../shared/account.ts';
import { api } from '../../lib/http.ts';

type Message = { message: string };

export const askForResetLink = (input: ForgotPasswordInput) => api<Message>('POST', '/pass/forget', input);
export const setNewPassword = (input: ResetPasswordInput) => api<Message>('POST', '/pass/reset', input);
export const sendVerificationCode = () => api<Message>('POST', '/auth/email-verification');
export const verifyEmail = (input: VerifyCodeInput) => api<Message>('POST', '/auth/verify-user', input);
