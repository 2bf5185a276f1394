import { createFileRoute, Link } from '@tanstack/react-router';
import * as v from 'valibot';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { SignInForm } from '../features/auth/components/sign-in-form.tsx';

export const Route = createFileRoute('/login')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  component: LoginPage,
});

function LoginPage() {
  const { redirect } = Route.useSearch();
  return (
    <PublicLayout>
      <div className="auth-card">
        <h1>Member login</h1>
        <SignInForm area="member" redirectTo={redirect} />
        <p className="muted">
          New here? <Link to="/registration">Create an account</Link>
        </p>
      </div>
    </PublicLayout>
  );
}
