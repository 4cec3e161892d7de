import { fstatSync, writeSync } from 'node:fs';
import type { CliOutput } from './cli-io.js';

/** A standard output or error stream of the process, as the CLI writes to it. */
export interface StdioOutput extends CliOutput {
  /** Calls `done` once everything written so far has been handed to the operating system. */
  flush(done: () => void): void;
}

/**
 * Standard output or error (`fd` 1 or 2) for the CLI. When it is a file, a pipe or a socket — never a terminal —
 * text is written straight to the descriptor (`writeSync`, as Node does for files and, on Linux, pipes), so a
 * command that prints and ends never builds Node's stream objects (`stream` and `net`, ~2 ms of a short command).
 * A terminal, anything else, or a descriptor that would block (`EAGAIN`) goes through Node's own stream, made at
 * its first use (`stream()`). A reader that went away (`EPIPE`) calls `onBrokenPipe` (default: the text is dropped).
 */
export function stdioOutput(fd: number, stream: () => NodeJS.WriteStream, onBrokenPipe: () => void = () => {}): StdioOutput {
  let direct: boolean | undefined;
  const isDirect = () => (direct ??= plainDescriptor(fd));
  let brokenPipe = false;
  return {
    write(text: string) {
      if (brokenPipe) return true;
      if (!isDirect()) return stream().write(text);
      let rest = Buffer.from(text);
      while (rest.length > 0) {
        try {
          rest = rest.subarray(writeSync(fd, rest));
        } catch (error) {
          const code = (error as NodeJS.ErrnoException).code;
          if (code === 'EAGAIN') {
            // A descriptor in non-blocking mode: Node's stream waits for it; everything from here on goes through it.
            direct = false;
            return stream().write(rest);
          }
          if (code === 'EPIPE') {
            brokenPipe = true;
            onBrokenPipe();
            return true;
          }
          throw error;
        }
      }
      return true;
    },
    get isTTY() {
      return isDirect() ? false : stream().isTTY === true;
    },
    get columns() {
      return isDirect() ? undefined : stream().columns;
    },
    flush(done) {
      if (isDirect()) setImmediate(done);
      else stream().write('', done);
    },
  };
}

/** Whether `fd` is a file, a pipe or a socket (surely not a terminal); false when it cannot be told. */
function plainDescriptor(fd: number): boolean {
  try {
    // BigInt stats: Node 20's `realpathSync` reads the shared buffer of the last plain stat call to tell pipes and
    // sockets apart, so a plain `fstatSync` of a pipe or socket here made the module loader skip resolving symlinks
    // for paths it had cached (a package reached through pnpm's links then loaded twice, without its dependencies).
    const stats = fstatSync(fd, { bigint: true });
    return stats.isFile() || stats.isFIFO() || stats.isSocket();
  } catch {
    return false;
  }
}
