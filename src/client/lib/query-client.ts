import { createSyncStoragePersister } from '@tanstack/query-sync-storage-persister';
import { QueryClient } from '@tanstack/react-query';
import { persistQueryClientRestore, persistQueryClientSubscribe } from '@tanstack/react-query-persist-client';
import { PERSIST_RESTORE_TIMEOUT_MS, PERSIST_STORAGE_KEY } from '../../shared/constants.ts';

// Spec 3: only the session slices (auth, admin) persist, in localStorage under the key "root".
export const PERSISTED_KEYS = ['auth', 'admin'] as const;

export function createQueryClient(): QueryClient {
  const client = new QueryClient({
    defaultOptions: { queries: { retry: 1, refetchOnWindowFocus: false, staleTime: 30_000 } },
  });
  for (const key of PERSISTED_KEYS)
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
