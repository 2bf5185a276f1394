/// <reference lib="webworker" />
// IndexedDB copies of the signed-in member's own data (issue 6): the GET calls of OFFLINE_COPY_PATHS go
// to the network first; a member's answer, which the server marks with the member it belongs to
// (X-Offline-Owner), is kept per member with the time it was saved. With no network the last copy of
// that call for that member answers, marked with X-Offline-Copy so the app says so. Nothing else is
// kept: no admin's answer (the server never marks them), no other call, never a POST (money is never
// queued). The copies go when the page says a session ended (CLEAR_OFFLINE_COPIES), when the server
// answers 401, and when another member's answer arrives.
import { clear, createStore, get, setMany } from 'idb-keyval';
import { registerRoute } from 'workbox-routing';
import {
  CLEAR_OFFLINE_COPIES,
  isOfflineCopyPath,
  OFFLINE_COPY_HEADER,
  OFFLINE_DB,
  OFFLINE_OWNER_HEADER,
  OFFLINE_STORE,
} from '../src/shared/offline.ts';

type Copy = { body: string; savedAt: string };

const store = createStore(OFFLINE_DB, OFFLINE_STORE);
/** The member whose copies are kept (the last member whose answer arrived). */
const OWNER_KEY = 'owner';
const copyKey = (owner: string, url: URL) => `copy:${owner}:${url.pathname}${url.search}`;

// Writes and clears run one after another, so a clear is never overtaken by a write begun before it.
let queue: Promise<unknown> = Promise.resolve();
const serially = <T>(task: () => Promise<T>): Promise<T> => {
  const run = queue.then(task, task);
  queue = run.catch(() => undefined);
  return run;
};
// Bumped by every clear: an answer to a request sent before a clear (an old session's) is not kept.
let generation = 0;

function clearCopies(): Promise<void> {
  generation += 1;
  return serially(() => clear(store));
}

async function keep(owner: string, url: URL, body: string, sentIn: number): Promise<void> {
  await serially(async () => {
    if (sentIn !== generation) return;
    // Another member's data arrives: the last member's copies go first (a shared phone).
    if ((await get<string>(OWNER_KEY, store)) !== owner) await clear(store);
    const copy: Copy = { body, savedAt: new Date().toISOString() };
    await setMany(
      [
        [OWNER_KEY, owner],
        [copyKey(owner, url), copy],
      ],
      store,
    );
  });
}

async function fromCopy(url: URL): Promise<Response | undefined> {
  const owner = await get<string>(OWNER_KEY, store);
  const copy = owner ? await get<Copy>(copyKey(owner, url), store) : undefined;
  if (!copy) return undefined;
  return new Response(copy.body, {
    status: 200,
    headers: {
      'content-type': 'application/json; charset=utf-8',
      'cache-control': 'no-store',
      [OFFLINE_COPY_HEADER]: copy.savedAt,
    },
  });
}

export function registerOfflineData(worker: ServiceWorkerGlobalScope): void {
  registerRoute(
    ({ url, request }) =>
      url.origin === worker.location.origin && request.method === 'GET' && isOfflineCopyPath(url.pathname),
    async ({ request, url, event }) => {
      const sentIn = generation;
      let response: Response;
      try {
        response = await fetch(request);
      } catch (networkError) {
        const copy = await fromCopy(url).catch(() => undefined);
        if (copy) return copy;
        throw networkError;
      }
      const owner = response.headers.get(OFFLINE_OWNER_HEADER);
      // Saving neither holds up the answer nor fails it; the worker stays up until it is done.
      if (response.status === 200 && owner) {
        const copy = response.clone();
        event.waitUntil(
          copy
            .text()
            .then((body) => keep(owner, url, body, sentIn))
            .catch(() => undefined),
        );
      } else if (response.status === 401) {
        event.waitUntil(clearCopies().catch(() => undefined));
      }
      return response;
    },
  );

  worker.addEventListener('message', (event) => {
    if ((event.data as { type?: unknown } | null)?.type !== CLEAR_OFFLINE_COPIES) return;
    // Answers once the copies are gone, so the page can wait for it.
    event.waitUntil(
      clearCopies().then(
        () => event.ports[0]?.postMessage({ cleared: true }),
        () => event.ports[0]?.postMessage({ cleared: false }),
      ),
    );
  });
}
