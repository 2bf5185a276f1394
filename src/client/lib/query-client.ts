import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { PERSIST_RESTORE_TIMEOUT_MS, PERSIST_STORAGE_KEY } from '../../shared/constants.ts';

// Spec 3 and 9: only the member's session (`auth`) persists, in localStorage under the key "root". The
// admin's session (`admin`) lives in memory only and is asked of the server after a reload.
export const PERSISTED_KEYS = ['auth'] as const;
const SESSION_KEYS = ['auth', 'admin'] as const;

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
  });
  for (const key of SESSION_KEYS)
    client.setQueryDefaults([key], { gcTime: Number.POSITIVE_INFINITY, staleTime: 60_000 });
  return client;
}

/** Restores the persisted session, giving up after 5 s (spec 4), then keeps storage in step. */
export async function restorePersistedState(queryClient: QueryClient): Promise<void> {
  // Written at once, not batched: after sign-out a shared phone must not keep the member for a second.
  const persister = createSyncStoragePersister({
    storage: window.localStorage,
    key: PERSIST_STORAGE_KEY,
    throttleTime: 0,
  });
  const timeout = new Promise<void>((resolve) => setTimeout(resolve, PERSIST_RESTORE_TIMEOUT_MS));
  await Promise.race([persistQueryClientRestore({ queryClient, persister }).catch(() => undefined), timeout]);
  // A copy written by an older version may still hold an admin: never trust it, ask the server instead.
  queryClient.removeQueries({ queryKey: ['admin'] });
  persistQueryClientSubscribe({
    queryClient,
    persister,
    dehydrateOptions: {
      shouldDehydrateQuery: (query) =>
        query.state.status === 'success' &&
        (PERSISTED_KEYS as readonly unknown[]).includes(query.queryKey[0]),
    },
  });
}
