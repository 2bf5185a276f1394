import type { PublicUser } from '../../../../shared/users.ts';

export function StatusBadge({ status }: { status: PublicUser['status'] }) {
  const blocked = status === 'block';
  return <span className={`badge ${blocked ? 'red' : 'green'}`}>{blocked ? 'Blocked' : 'Unblocked'}</span>;
}

export function ActiveBadge({ isActive }: { isActive: PublicUser['is_active'] }) {
  const active = isActive === 'active';
  return <span className={`badge ${active ? 'green' : 'grey'}`}>{active ? 'Active' : 'Inactive'}</span>;
}
