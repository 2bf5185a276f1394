import { createFileRoute } from '@tanstack/react-router';
import * as v from 'valibot';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { SignInForm } from '../features/auth/components/sign-in-form.tsx';

export const Route = createFileRoute('/admin-login')({
  validateSearch: v.object({ redirect: v.optional(v.string()) }),
  component: AdminLoginPage,
});

function AdminLoginPage() {
  const { redirect } = Route.useSearch();
  return (
    <PublicLayout>
      <div className="auth-card">
        <h1>Admin login</h1>
        <SignInForm area="admin" redirectTo={redirect} />
      </div>
    </PublicLayout>
  );
}
