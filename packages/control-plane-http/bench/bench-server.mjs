// A control plane server in its own process, for the benchmarks that measure what clients cost it
// (request-cost.mjs, slow-clients.mjs). `node bench/bench-server.mjs '<json>'` with { variant }:
//  after:         serveControlPlane as built (per-call body limits, the JSON scan, the slow-client bounds).
//  before-parse:  the previous parse path: every body up to 8 MiB read whole, JSON.parse, then the call's schema.
//  before-server: the previous server settings: the app on Node's server with keepAliveTimeout 30 s, requestTimeout
//                 180 s, Node's default header timeout (60 s) and checking interval (30 s); wrong tokens not limited.
// PGlite in memory. It prints one JSON line { url, token }, then answers "rss" on standard input with
// { rss, peak } in bytes (the peak sampled every 5 ms since the last "rss") and exits when standard input ends.
import { createServer } from 'node:http';
import { createControlPlane, createPGliteDriver } from '@core/control-plane';
import { parseInput, RPC_METHODS } from '@core/control-plane-client';
import { createAccessTokens, serveControlPlane } from '@core/control-plane-http';
import { createAdaptorServer } from '@hono/node-server';
import { createControlPlaneApp } from '@core/control-plane-http';

const config = JSON.parse(process.argv[2] ?? '{}');
const driver = await createPGliteDriver();
const plane = await createControlPlane({ driver, background: false });
const tokens = createAccessTokens({ driver, schema: plane.schema });
const { token } = await tokens.create({ kind: 'worker' });
const authenticate = (given) => (given === undefined ? undefined : tokens.verify(given));
const log = () => undefined;

let url;
if (config.variant === 'after') {
  const server = await serveControlPlane({ client: plane.client, authenticate, port: 0, log, ratePerSecond: 1e6, rateBurst: 1e6 });
  url = server.url;
} else if (config.variant === 'before-parse') {
  // The previous parse path alone: the body read whole (up to 8 MiB), JSON.parse, the call's schema.
  const server = createServer((request, response) => {
    const chunks = [];
    request.on('data', (chunk) => chunks.push(chunk));
    request.on('end', () => {
      let status = 200;
      try {
        const name = request.url.slice(4).replace('/', '.');
        parseInput(RPC_METHODS[name].input, JSON.parse(Buffer.concat(chunks).toString('utf8')), name);
      } catch {
        status = 400;
      }
      response.writeHead(status, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
} else {
  const app = createControlPlaneApp({ client: plane.client, authenticate, log, ratePerSecond: 1e6, rateBurst: 1e6, wrongTokenBurst: 1e9, wrongTokenRatePerSecond: 1e9 });
  const server = createAdaptorServer({ fetch: app.fetch });
  server.keepAliveTimeout = 30_000;
  server.requestTimeout = 180_000;
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  url = `http://127.0.0.1:${server.address().port}`;
}

let peak = 0;
setInterval(() => (peak = Math.max(peak, process.memoryUsage().rss)), 5).unref();
process.stdout.write(`${JSON.stringify({ url, token })}\n`);
process.stdin.setEncoding('utf8');
process.stdin.on('data', (text) => {
  for (const line of text.split('\n')) {
    if (line.trim() !== 'rss') continue;
    globalThis.gc?.();
    const rss = process.memoryUsage().rss;
    process.stdout.write(`${JSON.stringify({ rss, peak: Math.max(peak, rss) })}\n`);
    peak = rss;
  }
});
process.stdin.on('end', () => process.exit(0));
