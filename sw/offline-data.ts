/// <reference lib="webworker" />
// IndexedDB copies of the signed-in member's own data (issue 6): the GET calls of OFFLINE_COPY_PATHS go
// to the network first; a member's answer, which the server marks with the member it belongs to
// (X-Offline-Owner), is kept per member with the time it was saved. With no network the last copy of
// that call for that member answers, marked with X-Offline-Copy so the app says so. Nothing else is
// kept: no admin's answer (the server never marks them), no other call, never a POST (money is never
// queued). The copies go when the page says a session ended (CLEAR_OFFLINE_COPIES), when the server
// answers 401, when another member's answer arrives, and once the session they were saved in has ended
// (X-Offline-Expires, kept with them): a copy never outlives its session.
import { clear, createStore, get, setMany } from 'idb-keyval';
import { registerRoute } from 'workbox-routing';
import {
  CLEAR_OFFLINE_COPIES,
  isOfflineCopyPath,
  OFFLINE_COPY_HEADER,
  OFFLINE_DB,
  OFFLINE_EXPIRES_HEADER,
  OFFLINE_OWNER_HEADER,
  OFFLINE_STORE,
} from '../src/shared/offline.ts';

type Copy = { body: string; savedAt: string };

const store = createStore(OFFLINE_DB, OFFLINE_STORE);
/** The member whose copies are kept (the last member whose answer arrived). */
const OWNER_KEY = 'owner';
/** When the session of the latest copy ends (ISO 8601): from then on the copies are gone. */
const ENDS_KEY = 'ends';
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

async function keep(owner: string, endsAt: string, url: URL, body: string, sentIn: number): Promise<void> {
  await serially(async () => {
    if (sentIn !== generation) return;
    // Another member's data arrives: the last member's copies go first (a shared phone).
    if ((await get<string>(OWNER_KEY, store)) !== owner) await clear(store);
    const copy: Copy = { body, savedAt: new Date().toISOString() };
    // The latest answer's end stands for every copy: the session was just used, so it ends no sooner.
    await setMany(
      [
        [OWNER_KEY, owner],
        [ENDS_KEY, endsAt],
        [copyKey(owner, url), copy],
      ],
      store,
    );
  });
}

/** Clears the copies once their session has ended (or when no end was kept with them). */
async function dropEnded(): Promise<void> {
  const endsAt = await get<string>(ENDS_KEY, store);
  const owner = await get<string>(OWNER_KEY, store);
  if (!owner) return;
  if (!endsAt || !(Date.parse(endsAt) > Date.now())) await clearCopies();
}

async function fromCopy(url: URL): Promise<Response | undefined> {
  await dropEnded();
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
      // Whether the member is online or not, copies of a session that has ended go before anything else.
      await dropEnded().catch(() => undefined);
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
      const endsAt = response.headers.get(OFFLINE_EXPIRES_HEADER);
      // Saving neither holds up the answer nor fails it; the worker stays up until it is done.
      if (response.status === 200 && owner && endsAt) {
        const copy = response.clone();
        event.waitUntil(
          copy
            .text()
            .then((body) => keep(owner, endsAt, url, body, sentIn))
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
