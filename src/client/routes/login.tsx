import { createFileRoute, Link, useLocation } from '@tanstack/react-router';
import * as v from 'valibot';
import { SIGN_IN_TEXT } from '../../shared/auth.ts';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { SignInForm } from '../features/auth/components/sign-in-form.tsx';
import { skipMemberSignIn } from '../features/auth/guards.ts';

export const Route = createFileRoute('/login')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  beforeLoad: skipMemberSignIn,
  component: LoginPage,
});

function LoginPage() {
  const { redirect } = Route.useSearch();
  // Handed over in the history entry by sign-out and by registration (see app/router.tsx).
  const { signedOut, email } = useLocation({ select: (location) => location.state });
  return (
    <PublicLayout>
      <div className="auth-card">
        <h1>Member login</h1>
        {signedOut ? (
          <p className="notice" role="status">
            {SIGN_IN_TEXT.signedOut}
          </p>
        ) : null}
        <SignInForm area="member" redirectTo={redirect} initialEmail={email} />
        <p className="muted">
          New here? <Link to="/registration">Create an account</Link>
        </p>
      </div>
    </PublicLayout>
  );
}
