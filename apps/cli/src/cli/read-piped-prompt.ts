import { fstatSync } from 'node:fs';
import type { CliIO } from './cli-io.js';
import { CliError } from './cli-error.js';

/** The most a piped prompt may hold (1 MiB): more is refused rather than sent to the model. */
const MAX_PIPED_PROMPT_BYTES = 1024 * 1024;

/**
 * The prompt piped into `ankole run` (`echo "…" | ankole run`, `ankole run < task.md`): standard input read to its end,
 * trimmed, when it is a pipe or a file (never a terminal, never when `io` is not the real process). `undefined` when
 * there is nothing to read.
 * @throws CliError (`prompt_too_long`) past 1 MiB.
 */
export async function readPipedPrompt(io: Pick<CliIO, 'stdinIsTTY'>, stdin: NodeJS.ReadStream = process.stdin): Promise<string | undefined> {
  if (io.stdinIsTTY !== false) return undefined;
  let piped = false;
  try {
    const info = fstatSync(0);
    piped = info.isFIFO() || info.isFile() || info.isSocket();
  } catch {
    return undefined;
  }
  if (!piped) return undefined;
  const chunks: Buffer[] = [];
  let size = 0;
  for await (const chunk of stdin) {
    const buffer = typeof chunk === 'string' ? Buffer.from(chunk) : (chunk as Buffer);
    size += buffer.length;
    if (size > MAX_PIPED_PROMPT_BYTES) {
      stdin.destroy();
      throw new CliError('prompt_too_long', 'The prompt on standard input is longer than 1 MiB: give a shorter one, or put the material in a file in the agent home.');
    }
    chunks.push(buffer);
  }
  const text = Buffer.concat(chunks).toString('utf8').trim();
  return text === '' ? undefined : text;
}
