import { createRequire } from 'node:module';
import type BetterSqlite3 from 'better-sqlite3';

/**
 * better-sqlite3 in the release that runs on this Node; import it from here, never from the package.
 * Release 12 aborts the process on Node 24.19 and newer ("Assertion failed: (env) != nullptr" when the
 * garbage collector frees a statement); release 13 fixes that, but it is built for Node-API 10, and
 * Node 20 has Node-API 9: there it crashes as soon as a database opens. Both are installed (13 under
 * the alias better-sqlite3-13), and the Node-API version of the running Node picks one. Their
 * JavaScript API is the same for everything used here, so the types are @types/better-sqlite3's.
 */
const NODE_API_OF_RELEASE_13 = 10;

const requireCommonJs = createRequire(import.meta.url);
/** The release's entry file, for a worker thread that opens the same database (checkpointer.ts). */
export const sqliteModulePath = requireCommonJs.resolve(
  Number(process.versions.napi) >= NODE_API_OF_RELEASE_13 ? 'better-sqlite3-13' : 'better-sqlite3',
);
const SQLite: typeof BetterSqlite3 = requireCommonJs(sqliteModulePath);

declare namespace SQLite {
  type Database = BetterSqlite3.Database;
  type Statement<Parameters extends unknown[] = unknown[], Result = unknown> = BetterSqlite3.Statement<
    Parameters,
    Result
  >;
}

export default SQLite;
