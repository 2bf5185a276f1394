import { createFileRoute } from '@tanstack/react-router';
import { AdminLayout } from '../app/layouts/admin-layout.tsx';
import { requireAdmin } from '../features/auth/guards.ts';

export const Route = createFileRoute('/admin')({ beforeLoad: requireAdmin, component: AdminLayout });
