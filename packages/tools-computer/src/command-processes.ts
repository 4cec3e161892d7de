import { readdirSync, readFileSync } from 'node:fs';

/** The environment variable that marks every process a command starts (its value is unique per command). */
export const COMMAND_MARKER_VARIABLE = 'ANKOLE_COMMAND_ID';

/**
 * The live processes of a command: those in its process group, and those carrying its marker
 * (`ANKOLE_COMMAND_ID=<id>` in their environment, inherited from the shell), which finds the ones that
 * left the group (`setsid`, daemons). Zombies count as gone. Only processes started no earlier than
 * `startedTicks` (the shell's start time, see `processStartTicks`) can carry the marker, so only their
 * environment is read. Without `/proc` (not Linux), the group as a whole: `[-pgid]` while it has members.
 */
export function liveCommandProcesses(pgid: number, commandId: string, startedTicks = 0): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return groupHasMembers(pgid) ? [-pgid] : [];
  }
  const marker = Buffer.from(`\0${COMMAND_MARKER_VARIABLE}=${commandId}\0`);
  const live: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry)) continue;
    const state = processState(entry);
    if (state === undefined || state.state === 'Z' || state.state === 'X') continue;
    if (state.pgid === pgid || (state.startTicks >= startedTicks && carriesMarker(entry, marker))) live.push(Number(entry));
  }
  return live;
}

/** Sends a signal to the process group (when given) and to each listed process; processes already gone are skipped. */
export function signalCommandProcesses(pgid: number | undefined, pids: readonly number[], signal: NodeJS.Signals): void {
  for (const target of [...(pgid === undefined ? [] : [-pgid]), ...pids]) {
    try {
      process.kill(target, signal);
    } catch {
      // already gone
    }
  }
}

function groupHasMembers(pgid: number): boolean {
  try {
    process.kill(-pgid, 0);
    return true;
  } catch {
    return false;
  }
}

function carriesMarker(pid: string, marker: Buffer): boolean {
  try {
    // environ is NUL-separated without a leading NUL: prefix one so the first variable matches too.
    return Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${pid}/environ`), Buffer.from([0])]).includes(marker);
  } catch {
    return false;
  }
}

/** When a process started, in clock ticks since boot (`/proc/<pid>/stat`), or 0 when unknown. */
export function processStartTicks(pid: number): number {
  return processState(String(pid))?.startTicks ?? 0;
}

function processState(pid: string): { state: string; pgid: number; startTicks: number } | undefined {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, 'utf8');
    // pid (comm) state ppid pgrp session tty tpgid flags minflt cminflt majflt cmajflt utime stime cutime
    // cstime priority nice threads itrealvalue starttime …; comm may hold spaces and parentheses.
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return { state: fields[0] ?? '', pgid: Number(fields[2]), startTicks: Number(fields[19]) };
  } catch {
    return undefined;
  }
}
