import { randomUUID } from 'node:crypto';

// Row ids: UUIDs of version 7 (RFC 9562), the time of creation in their first 48 bits, then 74
// random bits. Rows are mostly added in time order, so a new id lands at the end of its primary-key
// index instead of on a random page of it: a commit writes a few index pages instead of one per row
// (on SQLite the WAL, on PostgreSQL the heap and WAL of the index), and the pages it reads stay in
// the cache. The random bits come from crypto.randomUUID, so a seeded run (the simulator) makes the
// same ids, and the time from Date.now(), its simulated clock.

/** A new row id: a version-7 UUID, its random bits taken from a version-4 one. */
export function newId(): string {
  const random = randomUUID();
  const ms = Date.now().toString(16).padStart(12, '0');
  return `${ms.slice(0, 8)}-${ms.slice(8)}-7${random.slice(15)}`;
}
