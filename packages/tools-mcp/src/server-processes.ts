import { readdirSync, readFileSync } from 'node:fs';
import { SERVER_MARKER_VARIABLE } from './server-environment.js';

/**
 * Stops the live processes carrying `ANKOLE_MCP_SERVER_ID=<markerId>` (a stdio server and what it
 * started): SIGTERM, then SIGKILL for those still alive after `graceMs`. Found through `/proc`; does
 * nothing where there is none (not Linux).
 * @returns how many processes were signalled.
 */
export async function stopServerProcesses(markerId: string, graceMs: number): Promise<number> {
  const first = markedProcesses(markerId);
  signal(first, 'SIGTERM');
  const deadline = Date.now() + graceMs;
  let live = first;
  while (live.length > 0 && Date.now() < deadline) {
    await new Promise((resolve) => setTimeout(resolve, 20));
    live = markedProcesses(markerId);
  }
  signal(live, 'SIGKILL');
  return first.length;
}

/** The live (not zombie) processes whose environment holds the marker. */
export function markedProcesses(markerId: string): number[] {
  let entries: string[];
  try {
    entries = readdirSync('/proc');
  } catch {
    return [];
  }
  const marker = Buffer.from(`\0${SERVER_MARKER_VARIABLE}=${markerId}\0`);
  const found: number[] = [];
  for (const entry of entries) {
    if (!/^\d+$/.test(entry) || Number(entry) === process.pid) continue;
    try {
      const stat = readFileSync(`/proc/${entry}/stat`, 'utf8');
      const state = stat.slice(stat.lastIndexOf(')') + 2).split(' ')[0];
      if (state === 'Z' || state === 'X') continue;
      const environ = Buffer.concat([Buffer.from([0]), readFileSync(`/proc/${entry}/environ`), Buffer.from([0])]);
      if (environ.includes(marker)) found.push(Number(entry));
    } catch {
      // gone meanwhile, or not ours to read
    }
  }
  return found;
}

function signal(pids: readonly number[], name: NodeJS.Signals): void {
  for (const pid of pids) {
    try {
      process.kill(pid, name);
    } catch {
      // already gone
    }
  }
}
