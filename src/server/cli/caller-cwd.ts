import { resolve } from 'node:path';

/**
 * A path given on the command line, from the folder the operator typed it in: `npm run` starts scripts
 * in the package's folder and keeps the caller's in INIT_CWD, so `--out ./here` means where they were.
 */
export const fromCallerCwd = (path: string) => resolve(process.env.INIT_CWD ?? process.cwd(), path);
