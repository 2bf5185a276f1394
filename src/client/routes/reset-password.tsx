import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { ACCOUNT_TEXT } from '../../shared/account.ts';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { ResetPasswordForm } from '../features/account/components/reset-password-form.tsx';

export const Route = createFileRoute('/reset-password')({
  validateSearch: v.object({ token: v.optional(v.string()) }),
  component: ResetPasswordPage,
});

function ResetPasswordPage() {
  const { token } = Route.useSearch();
  return (
    <PublicLayout>
      <div className="auth-card">
        <h1>{ACCOUNT_TEXT.resetTitle}</h1>
        <ResetPasswordForm token={token ?? ''} />
      </div>
    </PublicLayout>
  );
}
