// The `ankole` command line: what dist/ankole.cjs loads (see cli.ts).
import { isOpenTelemetryRegistered } from '@core/otel/registered';
import { processIO } from './cli/cli-io.js';
import { EXIT_CODES } from './cli/exit-codes.js';
import { runCli } from './cli/run-cli.js';

/** After Ctrl-C or SIGTERM, how long the process may stay up so aborted tools finish killing their processes. */
const INTERRUPT_DRAIN_MS = 3_000;

/** Runs the command line of this process and exits with its code. */
async function main(): Promise<void> {
  const io = processIO();
  const code = await runCli(process.argv.slice(2), io);
  // With an OpenTelemetry SDK registered (`node --import ./tracing.mjs`), export its spans before the process exits.
  if (isOpenTelemetryRegistered()) await (await import('@core/otel')).flushTracing();
  if (code === EXIT_CODES.interrupted || code === EXIT_CODES.terminated) {
    // Let pending kills (SIGTERM, then SIGKILL after a grace period) of aborted tools run, within a bound.
    process.exitCode = code;
    setTimeout(() => process.exit(code), INTERRUPT_DRAIN_MS).unref();
  } else {
    // Flush what was written, then leave even if a keep-alive socket or a stray timer is still open.
    io.flush(() => process.exit(code));
  }
}

// Bundled as CommonJS (dist/cli-main.cjs, loaded by dist/ankole.cjs through the compile cache): no top-level await.
void main();
