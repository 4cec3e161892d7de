// Benchmark (not a test): how long the HTTP control plane holds a connection for a slow or idle client, before (the
// previous server settings) and after (headers within 10 s, the request within 60 s, idle keep-alive 5 s), and how it
// answers 200 wrong tokens in a row (after: 401 up to a burst of 20, then 5 a second, the rest 429). Each server runs
// in its own process (bench-server.mjs). All clients run at once; the slowest "before" case takes about 3.5 minutes.
// Runs the BUILT packages: `node bench/slow-clients.mjs`.
import { spawn } from 'node:child_process';
import net from 'node:net';
import { createInterface } from 'node:readline';

// Our targets: no slow client is held more than 15 s past its bound (10 s headers, 5 s idle, 60 s request).
const LIMIT_S = 250;

async function startServer(variant) {
  const child = spawn(process.execPath, [new URL('./bench-server.mjs', import.meta.url).pathname, JSON.stringify({ variant })], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const { url, token } = JSON.parse((await lines.next()).value);
  return { url, token, stop: () => child.stdin.end() };
}

/** Seconds until the server closes a connection that behaves as `behave` says (capped at LIMIT_S). */
function held(url, behave) {
  const { hostname, port } = new URL(url);
  return new Promise((resolve) => {
    const started = performance.now();
    const socket = net.connect(Number(port), hostname);
    let timer;
    const done = () => {
      clearInterval(timer);
      socket.destroy();
      resolve((performance.now() - started) / 1000);
    };
    socket.on('close', done);
    socket.on('error', () => undefined);
    socket.on('data', () => undefined);
    socket.setTimeout(LIMIT_S * 1000, done);
    socket.on('connect', () => (timer = behave(socket)));
  });
}

const trickle = (socket, text) => {
  let at = 0;
  return setInterval(() => socket.writable && socket.write(text[at++ % text.length]), 1000);
};

async function measure(variant) {
  const server = await startServer(variant);
  const headers = `POST /v1/jobs/list HTTP/1.1\r\nHost: x\r\nAuthorization: Bearer ${server.token}\r\n`;
  const cases = {
    'headers a byte a second': held(server.url, (socket) => trickle(socket, `${headers}X-Pad: ${'p'.repeat(10_000)}`)),
    'connected, silent': held(server.url, () => undefined),
    'idle keep-alive after a request': held(server.url, (socket) => {
      socket.write(`GET /v1/health HTTP/1.1\r\nHost: x\r\n\r\n`);
      return undefined;
    }),
    'endless body a byte a second, valid token': held(server.url, (socket) => {
      // Within the call's body limit (16 KiB), so only the time bounds it.
      socket.write(`${headers}Content-Type: application/json\r\nContent-Length: 16000\r\n\r\n{"agentId":"a","pad":"`);
      return trickle(socket, 'x');
    }),
  };
  const statuses = [];
  for (let index = 0; index < 200; index += 1) {
    const response = await fetch(`${server.url}/v1/jobs/list`, { method: 'POST', body: '{}', headers: { authorization: `Bearer ank_guess${index}` } });
    await response.arrayBuffer();
    statuses.push(response.status);
  }
  const seconds = Object.fromEntries(await Promise.all(Object.entries(cases).map(async ([name, promise]) => [name, await promise])));
  server.stop();
  const counts = Object.entries(statuses.reduce((all, status) => ({ ...all, [status]: (all[status] ?? 0) + 1 }), {}))
    .map(([status, count]) => `${count}×${status}`)
    .join(' + ');
  return { seconds, counts };
}

const [before, after] = await Promise.all([measure('before-server'), measure('after')]);
console.log(`Seconds the server holds the connection (capped at ${LIMIT_S} s):`);
console.log('| client | before | after | after / before |');
console.log('|---|---|---|---|');
for (const name of Object.keys(after.seconds)) {
  console.log(`| ${name} | ${before.seconds[name].toFixed(1)} s | ${after.seconds[name].toFixed(1)} s | ${(after.seconds[name] / before.seconds[name]).toFixed(2)} |`);
}
console.log(`| 200 wrong tokens in a row | ${before.counts} | ${after.counts} | |`);
