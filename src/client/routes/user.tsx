import { createFileRoute } from '@tanstack/react-router';
import { MemberLayout } from '../app/layouts/member-layout.tsx';
import { requireMember } from '../features/auth/guards.ts';

export const Route = createFileRoute('/user')({ beforeLoad: requireMember, component: MemberLayout });
