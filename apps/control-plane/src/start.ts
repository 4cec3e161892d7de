#!/usr/bin/env node
/*
 * The control plane as a standalone HTTP service: opens the database (DATABASE_URL, or the embedded one in
 * ANKOLE_DATA_DIR, default $XDG_DATA_HOME/ankole/pglite), runs the background duties (schedules, lost claims) and serves every
 * control-plane call on HOST:PORT (default 127.0.0.1:7070) for tokens made with `ankole tokens create`. SIGTERM or
 * SIGINT stops it. Everything it runs is `@core/control-plane` and `@core/control-plane-http`; `ankole serve` does
 * the same from the CLI.
 */
import { createControlPlane, defaultDataDir } from '@core/control-plane';
import { createAccessTokens, serveControlPlane } from '@core/control-plane-http';

const env = process.env;
const databaseUrl = env.DATABASE_URL === undefined || env.DATABASE_URL === '' ? undefined : env.DATABASE_URL;
const port = env.PORT === undefined || env.PORT === '' ? 7070 : Number(env.PORT);
if (!Number.isInteger(port) || port < 0 || port > 65_535) {
  process.stderr.write(`control-plane: PORT must be a port number, not "${env.PORT}"\n`);
  process.exit(2);
}
const where = databaseUrl === undefined ? { dataDir: env.ANKOLE_DATA_DIR || defaultDataDir() } : { databaseUrl };
const plane = await createControlPlane({
  ...where,
  onError: (error) => process.stderr.write(`control-plane: background duty failed (retrying): ${(error as Error).message}\n`),
});
const tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
const server = await serveControlPlane({
  client: plane.client,
  authenticate: (token) => (token === undefined ? undefined : tokens.verify(token)),
  host: env.HOST || '127.0.0.1',
  port,
});
process.stdout.write(`Serving the control plane at ${server.url}\n`);

let stopping = false;
async function stop(): Promise<void> {
  if (stopping) return;
  stopping = true;
  await server.close();
  await plane.close();
  process.stdout.write('Stopped.\n');
}
process.once('SIGTERM', () => void stop());
process.once('SIGINT', () => void stop());
