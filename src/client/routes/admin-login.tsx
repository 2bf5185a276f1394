import { createFileRoute, useLocation } from '@tanstack/react-router';
import * as v from 'valibot';
import { SIGN_IN_TEXT } from '../../shared/auth.ts';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { SignInForm } from '../features/auth/components/sign-in-form.tsx';
import { skipAdminSignIn } from '../features/auth/guards.ts';

export const Route = createFileRoute('/admin-login')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  beforeLoad: skipAdminSignIn,
  component: AdminLoginPage,
});

function AdminLoginPage() {
  const { redirect } = Route.useSearch();
  const signedOut = useLocation({ select: (location) => location.state.signedOut });
  return (
    <PublicLayout>
      <div className="auth-card">
        <h1>Admin login</h1>
        {signedOut ? (
          <p className="notice" role="status">
            {SIGN_IN_TEXT.signedOut}
          </p>
        ) : null}
        <SignInForm area="admin" redirectTo={redirect} />
      </div>
    </PublicLayout>
  );
}
