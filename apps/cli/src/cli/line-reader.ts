import { createInterface, type Interface } from 'node:readline';
import type { Readable } from 'node:stream';

/** Reads a person's input one line at a time, keeping lines typed ahead of the question that takes them. */
export interface LineReader {
  /**
   * The next line (without its end of line): one typed earlier and not taken yet, else the next one typed.
   * `undefined` once input ended, the reader was closed, or `signal` aborted (the line then stays for the next read).
   */
  read(signal?: AbortSignal): Promise<string | undefined>;
  /** Stops reading: later reads answer `undefined`. */
  close(): void;
}

/**
 * One line reader over `input` for as long as the caller needs it (a turn's approval questions, say): a single
 * `readline` interface, made at the first read, whose lines are queued, so a person who types two answers before the
 * second question loses neither (a reader made per question drops what it had read past its line). Between reads the
 * input is paused, so an idle reader does not keep the process alive.
 */
export function createLineReader(input: Readable): LineReader {
  let reader: Interface | undefined;
  let ended = false;
  const lines: string[] = [];
  const waiting: Array<(line: string | undefined) => void> = [];

  const open = (): Interface => {
    if (reader !== undefined) return reader;
    reader = createInterface({ input, terminal: false });
    reader.on('line', (line) => {
      const next = waiting.shift();
      if (next === undefined) lines.push(line);
      else next(line);
      if (waiting.length === 0) reader?.pause();
    });
    reader.once('close', () => {
      ended = true;
      for (const next of waiting.splice(0)) next(undefined);
    });
    return reader;
  };

  return {
    read(signal) {
      if (lines.length > 0) return Promise.resolve(lines.shift());
      if (ended || signal?.aborted === true) return Promise.resolve(undefined);
      const current = open();
      return new Promise((resolve) => {
        const take = (line: string | undefined) => {
          signal?.removeEventListener('abort', abort);
          resolve(line);
        };
        const abort = () => {
          const index = waiting.indexOf(take);
          if (index >= 0) waiting.splice(index, 1);
          if (waiting.length === 0) current.pause();
          resolve(undefined);
        };
        signal?.addEventListener('abort', abort, { once: true });
        waiting.push(take);
        current.resume();
      });
    },
    close() {
      ended = true;
      reader?.close();
      for (const next of waiting.splice(0)) next(undefined);
    },
  };
}
