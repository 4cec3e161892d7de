#!/usr/bin/env node
import { processIO } from './cli/cli-io.js';
import { runCli } from './cli/run-cli.js';

const code = await runCli(process.argv.slice(2), processIO());
// Flush what was written, then leave even if a keep-alive socket or a stray timer is still open.
process.stdout.write('', () => process.exit(code));
