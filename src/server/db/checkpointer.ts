import { Worker } from 'node:worker_threads';
import type SQLite from './sqlite.ts';
import { sqliteModulePath } from './sqlite.ts';

// SQLite's checkpoints off the event loop. In WAL mode SQLite copies the WAL back into the database
// file once the WAL passes 1,000 pages (a checkpoint), in the COMMIT that crossed the line, and with
// synchronous=NORMAL that checkpoint flushes the WAL and the database file to the disk: on the
// event loop, so every request behind it waits (10 to 25 ms each on this machine's busy disk, about
// every 400 transfers). Here a worker thread with a connection of its own runs a PASSIVE checkpoint
// every CHECKPOINT_EVERY_MS: it copies what is committed without waiting for, or blocking, the
// server's readers and writer, and once everything is copied the writer starts the WAL over at its
// next transaction, as after SQLite's own checkpoints.
// A PASSIVE checkpoint cannot finish while the writer keeps adding to the WAL, so under writes
// without a pause the WAL could grow: the server's connection still checkpoints itself as a
// backstop, at BACKSTOP_PAGES instead of 1,000, and then has little left to copy. Should the worker
// fail or stop on its own, the server's connection goes back to SQLite's 1,000 pages.
// Durability does not depend on any of this: an answered write is in the flushed WAL
// (group-commit.ts), and a checkpoint only moves it.

/** How often the worker checkpoints (a PASSIVE checkpoint with nothing to copy costs microseconds). */
export const CHECKPOINT_EVERY_MS = 200;
/** The WAL's size (pages) at which the server's connection checkpoints anyway (40 MB of 4-KB pages). */
export const BACKSTOP_PAGES = 10_000;
/** SQLite's default, when no worker checkpoints. */
export const AUTOCHECKPOINT_PAGES = 1000;

// CommonJS run by the worker (eval): better-sqlite3 is a native module loaded by its own path.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
const SQLite = require(workerData.module);
const db = new SQLite(workerData.file);
db.pragma('synchronous = NORMAL');
let reported = false;
const checkpoint = () => {
  try {
    db.pragma('wal_checkpoint(PASSIVE)');
  } catch (error) {
    if (!reported) parentPort.postMessage({ error: String(error && error.message ? error.message : error) });
    reported = true;
  }
};
const timer = setInterval(checkpoint, workerData.everyMs);
parentPort.on('message', () => {
  clearInterval(timer);
  checkpoint();
  db.close();
  parentPort.close();
});
`;

export class WalCheckpointer {
  readonly #db: SQLite.Database;
  readonly #worker: Worker;
  #stopping = false;
  #exited: Promise<void>;
  /** Checkpoints the worker could not make (the first error's message), for the logs and tests. */
  failure: string | undefined;

  /** `db` is the server's connection to `file`, in WAL mode. */
  constructor(db: SQLite.Database, file: string, everyMs = CHECKPOINT_EVERY_MS) {
    this.#db = db;
    db.pragma(`wal_autocheckpoint = ${BACKSTOP_PAGES}`);
    this.#worker = new Worker(WORKER_SOURCE, {
      eval: true,
      workerData: { module: sqliteModulePath, file, everyMs },
    });
    // The worker's timer alone does not keep a process alive that has nothing else to do.
    this.#worker.unref();
    this.#worker.on('message', (message: { error?: string }) => {
      this.failure ??= message.error;
      this.#fallBack();
    });
    this.#worker.on('error', (error) => {
      this.failure ??= error.message;
      this.#fallBack();
    });
    this.#exited = new Promise((resolve) =>
      this.#worker.once('exit', () => {
        if (!this.#stopping) this.#fallBack();
        resolve();
      }),
    );
  }

  /** The server's connection checkpoints again, as SQLite does by default. */
  #fallBack(): void {
    if (this.#db.open) this.#db.pragma(`wal_autocheckpoint = ${AUTOCHECKPOINT_PAGES}`);
  }

  /** Stops the worker after a last checkpoint; before the server's connection closes. */
  async stop(): Promise<void> {
    if (this.#stopping) return;
    this.#stopping = true;
    // Referenced again while it stops: a process with nothing else left to do (a command's last
    // await) would otherwise exit before the worker's exit is heard, its await unsettled.
    this.#worker.ref();
    this.#worker.postMessage('stop');
    await this.#exited;
  }
}
