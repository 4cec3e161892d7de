// The transferred size of the dashboard's first load, measured in headless Chromium (Debian's `chromium`, or
// ANKOLE_CHROMIUM): every response of opening `/` (the sign-in page: the HTML, the style sheet and the scripts),
// as the network counted it (headers and gzipped bodies). Run after `build`: `node bench/first-load.mjs`.
import { existsSync } from 'node:fs';
import { createServer } from 'node:http';
import { chromium } from 'playwright-core';
import { createDashboardRoutes } from '../dist/index.js';

const executablePath = [process.env.ANKOLE_CHROMIUM, '/usr/bin/chromium', '/usr/bin/chromium-browser', '/usr/bin/google-chrome'].find((path) => path && existsSync(path));
if (executablePath === undefined) {
  console.log('first-load: skipped, no Chromium here');
  process.exit(0);
}
const app = createDashboardRoutes({ authenticate: () => undefined });
const server = createServer(async (request, response) => {
  const answer = await app.fetch(new Request(`http://${request.headers.host}${request.url}`, { method: request.method, headers: request.headers }));
  response.writeHead(answer.status, Object.fromEntries(answer.headers));
  response.end(Buffer.from(await answer.arrayBuffer()));
});
await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
const browser = await chromium.launch({ executablePath, headless: true, args: ['--no-sandbox'] });
const page = await browser.newPage();
const session = await page.context().newCDPSession(page);
await session.send('Network.enable');
const sizes = new Map();
session.on('Network.responseReceived', (event) => sizes.set(event.requestId, { url: event.response.url, bytes: 0 }));
session.on('Network.loadingFinished', (event) => {
  const entry = sizes.get(event.requestId);
  if (entry !== undefined) entry.bytes = event.encodedDataLength;
});
await page.goto(`http://127.0.0.1:${server.address().port}/`, { waitUntil: 'networkidle' });
const entries = [...sizes.values()];
const total = entries.reduce((sum, entry) => sum + entry.bytes, 0);
for (const entry of entries) console.log(`${String(entry.bytes).padStart(6)} B  ${new URL(entry.url).pathname}`);
console.log(`first-load: ${entries.length} responses, ${total} B transferred (${(total / 1024).toFixed(1)} KiB)`);
await browser.close();
server.close();
