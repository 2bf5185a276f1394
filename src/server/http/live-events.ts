import type { FastifyInstance } from 'fastify';
import { PostgresAdapter, type RawBuilder, sql } from 'kysely';
import pg from 'pg';
import {
  LIVE_EVENTS_PATH,
  LIVE_RECONNECT_MS,
  LIVE_RECONNECT_TOPIC,
  type LiveMessage,
} from '../../shared/live-events.ts';
import type { Config } from '../config.ts';
import { type Db, isPostgres } from '../db/database.ts';
import type { GroupCommitDriver } from '../db/group-commit.ts';
import { resolveSession } from '../modules/auth/auth.service.ts';
import { defineRoute } from './route.ts';

// The live channel (server-sent events on GET /api/v1/events). Any module publishes with
// publishLive(trx, event) inside its own transaction; the notifications and tickets modules use it.
// An event is announced only once its transaction has committed, never for one rolled back:
// - PostgreSQL: pg_notify inside the transaction (PostgreSQL delivers it on commit only) reaches every
//   server instance LISTENing on the same database, this one included, and each fans out locally.
// - SQLite (one process, one connection): the group commit runs the announcement once the transaction
//   is committed and on disk, and drops it when the transaction rolls back (group-commit.ts,
//   afterCommit). Published outside a transaction, the caller's writes are already durable (each
//   statement of its own is answered only then): announced at once.
// An event carries only a topic (e.g. "notifications"); clients refetch what they show, so nothing a
// member may not read travels on the channel.

export type LiveAudience = { userIds: string[] } | { role: 'user' | 'admin' };
export type LiveEvent = { topic: string; audience: LiveAudience };

type Subscriber = { userId: string; role: 'user' | 'admin'; send: (message: LiveMessage) => void };

type LiveBus = {
  dialect: 'sqlite' | 'postgres';
  channel: string;
  /** SQLite: announces `event` locally once the transaction holding the connection commits, or at once outside one. */
  afterCommit: (event: LiveEvent, inTransaction: boolean) => void;
};

/** Streams per member: more tabs than this and the oldest stream is closed (it reconnects if still open). */
const MAX_STREAMS_PER_USER = 12;
/** pg_notify payloads must stay under 8000 bytes: recipients go in chunks. */
const IDS_PER_NOTIFY = 120;

// Found from any handle of the same database (root or transaction): they share the dialect adapter.
const buses = new WeakMap<object, LiveBus>();
const busOf = (db: Db) => buses.get(db.getExecutor().adapter);

/** Announces `event` to its audience's open streams once the caller's transaction commits. */
export async function publishLive(trx: Db, event: LiveEvent): Promise<void> {
  const bus = busFor(trx, event);
  if (!bus) return;
  if (bus.dialect === 'postgres') {
    for (const call of notifyCalls(bus, event)) await sql`select ${call}`.execute(trx);
    return;
  }
  bus.afterCommit(event, trx.isTransaction);
}

/**
 * PostgreSQL: publishLive as expressions (`pg_notify(...)`) for the caller to select in a statement of
 * its own, one round trip fewer; PostgreSQL still delivers them on commit only. Empty when there is
 * nothing to announce or no bus; undefined on SQLite, where publishLive must run.
 */
export function publishLiveCalls(trx: Db, event: LiveEvent): RawBuilder<unknown>[] | undefined {
  if (!isPostgres(trx)) return undefined;
  const bus = busFor(trx, event);
  return bus ? notifyCalls(bus, event) : [];
}

/** The bus that announces `event`; none without a bus (no server) or without anyone to tell. */
function busFor(trx: Db, event: LiveEvent): LiveBus | undefined {
  if ('userIds' in event.audience && event.audience.userIds.length === 0) return undefined;
  return busOf(trx);
}

function notifyCalls(bus: LiveBus, event: LiveEvent): RawBuilder<unknown>[] {
  const parts =
    'userIds' in event.audience
      ? chunk([...new Set(event.audience.userIds)], IDS_PER_NOTIFY).map(
          (userIds): LiveEvent => ({ topic: event.topic, audience: { userIds } }),
        )
      : [event];
  return parts.map((part) => sql`pg_notify(${bus.channel}, ${JSON.stringify(part)})`);
}

function chunk<T>(items: T[], size: number): T[][] {
  const out: T[][] = [];
  for (let i = 0; i < items.length; i += size) out.push(items.slice(i, i + size));
  return out;
}

const channelFor = (schema: string | undefined) =>
  `live_${(schema ?? 'public').toLowerCase().replace(/[^a-z0-9_]/g, '_')}`.slice(0, 63);

/** Creates this instance's bus, the PostgreSQL listener when there is one, and GET /api/v1/events. */
export function registerLiveEvents(
  api: FastifyInstance,
  deps: {
    db: Db;
    /** SQLite's driver, which runs an announcement once its transaction is durable. */
    groupCommit?: Pick<GroupCommitDriver, 'afterCommit'>;
    config: Pick<Config, 'databaseUrl' | 'databaseSchema' | 'liveHeartbeatMs'>;
    /** Told how many streams are open after each one opens or closes (the metrics). */
    onClientCount?: (count: number) => void;
  },
): void {
  const { db, groupCommit, config, onClientCount } = deps;
  const subscribers = new Set<Subscriber>();
  /** Ends a stream; `reconnect`: with the message and retry time that send the browser elsewhere. */
  const streamClosers = new Map<Subscriber, (reconnect?: boolean) => void>();
  let closed = false;

  const deliver = (event: LiveEvent) => {
    const message: LiveMessage = { topic: event.topic };
    const audience = event.audience;
    const ids = 'userIds' in audience ? new Set(audience.userIds) : undefined;
    for (const s of subscribers) {
      if (ids ? ids.has(s.userId) : 'role' in audience && s.role === audience.role) s.send(message);
    }
  };
  /** After the listener was down, anything may have been missed: every client refetches. */
  const resync = () => {
    for (const s of subscribers) s.send({ topic: '*' });
  };

  const dialect = db.getExecutor().adapter instanceof PostgresAdapter ? 'postgres' : 'sqlite';
  const channel = channelFor(config.databaseSchema);
  const announce = (event: LiveEvent) => {
    try {
      deliver(event);
    } catch (error) {
      api.log.warn({ err: error }, 'live event not announced');
    }
  };
  buses.set(db.getExecutor().adapter, {
    dialect,
    channel,
    afterCommit: (event, inTransaction) => {
      if (!inTransaction) announce(event);
      else if (groupCommit) groupCommit.afterCommit(() => announce(event));
      else throw new Error('live events on SQLite need the group commit');
    },
  });

  let listener: pg.Client | undefined;
  let retryTimer: NodeJS.Timeout | undefined;
  if (dialect === 'postgres' && config.databaseUrl) {
    const connectionString = config.databaseUrl;
    let attempts = 0;
    const listen = async () => {
      const client = new pg.Client({ connectionString });
      client.on('notification', (note) => {
        if (note.channel !== channel || !note.payload) return;
        try {
          deliver(JSON.parse(note.payload) as LiveEvent);
        } catch (error) {
          api.log.warn({ err: error }, 'bad live event payload');
        }
      });
      const retry = () => {
        if (closed || listener !== client) return;
        listener = undefined;
        client.end().catch(() => {});
        attempts += 1;
        retryTimer = setTimeout(() => void listen(), Math.min(10_000, 500 * 2 ** attempts));
        retryTimer.unref();
      };
      client.on('error', (error) => {
        api.log.warn({ err: error }, 'live events listener lost its connection');
        retry();
      });
      client.on('end', retry);
      listener = client;
      try {
        await client.connect();
        await client.query(`LISTEN "${channel}"`);
        if (attempts > 0) resync();
        attempts = 0;
      } catch (error) {
        api.log.warn({ err: error }, 'live events listener could not connect');
        retry();
      }
    };
    // The first LISTEN is awaited before the server answers, so no event of the first second is lost.
    api.addHook('onReady', listen);
  }

  // The server is shutting down (a restart, or a stop): every stream is told to reconnect, after a
  // time of its own in LIVE_RECONNECT_MS, by then to another process (this one accepts no more).
  api.addHook('preClose', async () => {
    closed = true;
    clearTimeout(retryTimer);
    for (const close of [...streamClosers.values()]) close(true);
    const client = listener;
    listener = undefined;
    await client?.end().catch(() => {});
  });

  defineRoute(api, {
    method: 'GET',
    url: LIVE_EVENTS_PATH,
    summary: 'Live events of the signed-in person (server-sent events; each carries a topic to refetch)',
    tags: ['live'],
    access: 'signed-in',
    handler: async ({ user, request, reply }) => {
      reply.hijack();
      const raw = reply.raw;
      const socket = raw.socket ?? request.raw.socket;
      raw.writeHead(200, {
        ...(reply.getHeaders() as Record<string, string>),
        'content-type': 'text/event-stream; charset=utf-8',
        'cache-control': 'no-store',
        'x-accel-buffering': 'no',
      });
      raw.write(`retry: 3000\n\n`);
      const subscriber: Subscriber = {
        userId: user.user.id,
        role: user.user.role,
        send: (message) => raw.write(`data: ${JSON.stringify(message)}\n\n`),
      };
      const mine = [...subscribers].filter((s) => s.userId === subscriber.userId);
      if (mine.length >= MAX_STREAMS_PER_USER) streamClosers.get(mine[0] as Subscriber)?.();

      let checking = false;
      const heartbeat = setInterval(() => {
        raw.write(': ping\n\n');
        // A stream lives only as long as its session: signed out, expired or blocked ends it.
        if (checking) return;
        checking = true;
        resolveSession(db, user.sessionId)
          .then((found) => {
            if (!found) close();
          })
          .catch(() => {})
          .finally(() => {
            checking = false;
          });
      }, config.liveHeartbeatMs);
      const close = (reconnect = false) => {
        clearInterval(heartbeat);
        subscribers.delete(subscriber);
        streamClosers.delete(subscriber);
        onClientCount?.(subscribers.size);
        if (reconnect && !raw.writableEnded) {
          const { min, max } = LIVE_RECONNECT_MS;
          const retryMs = min + Math.floor(Math.random() * (max - min));
          raw.write(`retry: ${retryMs}\ndata: ${JSON.stringify({ topic: LIVE_RECONNECT_TOPIC })}\n\n`);
        }
        if (!raw.writableEnded) raw.end();
        // The connection ends with its stream (it is not reused for other requests).
        socket.end();
      };
      subscribers.add(subscriber);
      streamClosers.set(subscriber, close);
      onClientCount?.(subscribers.size);
      raw.on('close', () => close());
      subscriber.send({ topic: 'ready' });
    },
  });
}
