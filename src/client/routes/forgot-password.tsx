import { createFileRoute, Link } from '@tanstack/react-router';
import { ACCOUNT_TEXT } from '../../shared/account.ts';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { ForgotPasswordForm } from '../features/account/components/forgot-password-form.tsx';

export const Route = createFileRoute('/forgot-password')({ component: ForgotPasswordPage });

function ForgotPasswordPage() {
  return (
    <PublicLayout>
      <div className="auth-card">
        <h1>{ACCOUNT_TEXT.forgotTitle}</h1>
        <ForgotPasswordForm />
        <p className="muted">
          <Link to="/login">{ACCOUNT_TEXT.backToSignIn}</Link>
        </p>
      </div>
    </PublicLayout>
  );
}
