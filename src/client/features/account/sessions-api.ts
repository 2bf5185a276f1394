import { queryOptions } from '@tanstack/react-query';
import type { DeviceSession } from '../../../shared/sessions.ts';
import { api } from '../../lib/http.ts';

export const deviceSessionsQuery = queryOptions({
  queryKey: ['account', 'sessions'],
  queryFn: async () => (await api<{ sessions: DeviceSession[] }>('GET', '/auth/sessions')).sessions,
  staleTime: 0,
});

export const endDeviceSession = (id: string) =>
  api<{ message: string }>('DELETE', `/auth/sessions/${encodeURIComponent(id)}`);

export const endOtherDeviceSessions = () =>
  api<{ message: string; ended: number }>('POST', '/auth/sessions/end-others');
