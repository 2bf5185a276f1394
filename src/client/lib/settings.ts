import { queryOptions } from '@tanstack/react-query';
import type { PublicSettings, Settings, SettingsUpdate } from '../../shared/settings.ts';
import { api } from './http.ts';

// The admin settings (API.md "Settings"), read by more than one admin screen: the settings screen
// itself, two-factor, and the figures of a payout that depend on the withdrawal fee.

export const settingsQuery = queryOptions({
  queryKey: ['settings'],
  queryFn: () => api<{ settings: Settings }>('GET', '/settings'),
});

/** The site name and support e-mail, which members see too. */
export const publicSettingsQuery = queryOptions({
  queryKey: ['settings', 'public'],
  queryFn: () => api<PublicSettings>('GET', '/settings/public'),
  staleTime: 5 * 60_000,
});

export const saveSettings = (input: SettingsUpdate) =>
  api<{ message: string; settings: Settings }>('PUT', '/settings', input);
