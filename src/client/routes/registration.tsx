import { createFileRoute, Link } from '@tanstack/react-router';
import * as v from 'valibot';
import { PublicLayout } from '../app/layouts/public-layout.tsx';
import { RegistrationForm } from '../features/auth/components/registration-form.tsx';

export const Route = createFileRoute('/registration')({
  validateSearch: v.object({ ref: v.optional(v.string()) }),
  component: RegistrationPage,
});

function RegistrationPage() {
  const { ref } = Route.useSearch();
  return (
    <PublicLayout>
      <div className="auth-card">
        <h1>Create your account</h1>
        <RegistrationForm referralCode={ref} />
        <p className="muted">
          Already a member? <Link to="/login">Sign in</Link>
        </p>
      </div>
    </PublicLayout>
  );
}
