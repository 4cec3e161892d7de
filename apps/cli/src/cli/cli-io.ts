import { createLineReader, type LineReader } from './line-reader.js';
import { stdioOutput } from './stdio-output.js';

/** A stream the CLI writes to. */
export interface CliOutput {
  write(text: string): unknown;
  /** True on a terminal: live lines, spinner and colours. */
  isTTY?: boolean;
  /** Terminal width, when known. */
  columns?: number;
}

/** What a command runs with: its streams, environment and signal hooks (injected, so tests can drive it). */
export interface CliIO {
  stdout: CliOutput;
  stderr: CliOutput;
  env: Readonly<Record<string, string | undefined>>;
  cwd: string;
  /** Registers a Ctrl-C handler; returns a function that removes it. */
  onInterrupt(handler: () => void): () => void;
  /** Registers a SIGTERM handler (a `kill`, a `timeout`, a service manager); returns a function that removes it. */
  onTerminate(handler: () => void): () => void;
  /** Ends the process at once (a second Ctrl-C). */
  exit(code: number): never;
  /** True when standard input is a terminal a person types into (approval questions need one). */
  stdinIsTTY?: boolean;
  /** Reads one line a person typed; `undefined` at the end of input or when `signal` aborts. */
  readLine?(signal?: AbortSignal): Promise<string | undefined>;
}

/** The real process's streams, environment, SIGINT and SIGTERM; `flush` waits until what was printed is out. */
export function processIO(): CliIO & { flush(done: () => void): void } {
  // One line reader for the process's whole life (made at the first question): answers typed ahead are kept.
  let stdinLines: LineReader | undefined;
  // A reader that goes away (`ankole run … | head`) is not an error worth a stack trace.
  const stdoutStream = () => {
    if (process.stdout.listenerCount('error') === 0) {
      process.stdout.on('error', (error: NodeJS.ErrnoException) => {
        if (error.code === 'EPIPE') process.exit(0);
        throw error;
      });
    }
    return process.stdout;
  };
  const stdout = stdioOutput(1, stdoutStream, () => process.exit(0));
  return {
    stdout,
    stderr: stdioOutput(2, () => process.stderr),
    flush: (done) => stdout.flush(done),
    env: process.env,
    cwd: process.cwd(),
    onInterrupt(handler) {
      process.on('SIGINT', handler);
      return () => process.off('SIGINT', handler);
    },
    onTerminate(handler) {
      process.on('SIGTERM', handler);
      return () => process.off('SIGTERM', handler);
    },
    exit: (code) => process.exit(code),
    // Asked only by the commands that read standard input: opening it costs a stream (and Node's net module for a pipe).
    get stdinIsTTY() {
      return process.stdin.isTTY === true;
    },
    readLine: (signal) => (stdinLines ??= createLineReader(process.stdin)).read(signal),
  };
}
