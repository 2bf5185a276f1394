import { readFileSync } from 'node:fs';

/**
 * CPU time (user + system) a process has used so far, in ms, from Linux's /proc (utime and stime in
 * clock ticks of 10 ms); NaN elsewhere. Per request, it shows a process's own cost, which latency and
 * throughput hide; a busy neighbour on the same cores still raises it (cache misses, lower clocks).
 */
export function cpuMsOf(pid: number | undefined): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.split(' ') ?? [];
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return Number.NaN;
  }
}
