import { readFileSync, readlinkSync } from 'node:fs';

/** Linux reports a thread's CPU time in clock ticks of 1/100 s (USER_HZ, fixed by the kernel's user-space ABI). */
const TICK_MS = 10;

/**
 * The operating-system id of the calling thread (a worker thread's own, when called inside one), from
 * `/proc/thread-self`; `undefined` where there is no such file (not Linux).
 */
export function currentThreadId(): number | undefined {
  try {
    const link = readlinkSync('/proc/thread-self');
    const id = Number(/task\/(\d+)$/.exec(link)?.[1]);
    return Number.isSafeInteger(id) && id > 0 ? id : undefined;
  } catch {
    return undefined;
  }
}

/**
 * The CPU time (user and system) a thread of this process has used, in ms, with a resolution of 10 ms; `undefined`
 * when it cannot be read (the thread has ended, or this is not Linux).
 */
export function threadCpuTimeMs(threadId: number): number | undefined {
  let stat: string;
  try {
    stat = readFileSync(`/proc/self/task/${threadId}/stat`, 'latin1');
  } catch {
    return undefined;
  }
  // The second field (the thread's name) is in parentheses and may hold spaces: count fields after the last ')'.
  const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
  // Fields 14 and 15 of the file (utime, stime) are the 12th and 13th after the name.
  const user = Number(fields[11]);
  const system = Number(fields[12]);
  return Number.isFinite(user) && Number.isFinite(system) ? (user + system) * TICK_MS : undefined;
}
