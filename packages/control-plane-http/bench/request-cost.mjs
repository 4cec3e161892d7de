// Benchmark (not a test): what one request may cost the HTTP control plane before its input is checked, before
// (the whole body read, JSON.parse, then the schema) and after (per-call body limits while streaming, the nesting and
// value-count scan before parsing). Each server runs in its own process (bench-server.mjs, PGlite in memory); the
// figure is its peak RSS growth while it answers. Runs the BUILT packages: `node bench/request-cost.mjs`.
import { spawn } from 'node:child_process';
import http from 'node:http';
import { createInterface } from 'node:readline';

const MiB = 1024 * 1024;
// Our target: a refused request costs the server at most 32 MiB, eight at once included.
const TARGET_MIB = 32;

async function startServer(variant) {
  const child = spawn(process.execPath, ['--expose-gc', new URL('./bench-server.mjs', import.meta.url).pathname, JSON.stringify({ variant })], { stdio: ['pipe', 'pipe', 'inherit'] });
  const lines = createInterface({ input: child.stdout })[Symbol.asyncIterator]();
  const { url, token } = JSON.parse((await lines.next()).value);
  const rss = async () => {
    child.stdin.write('rss\n');
    return JSON.parse((await lines.next()).value);
  };
  return { url, token, rss, stop: () => child.stdin.end() };
}

function post(url, path, token, body) {
  return new Promise((resolve, reject) => {
    const target = new URL(path, url);
    const request = http.request({ hostname: target.hostname, port: target.port, path: target.pathname, method: 'POST', agent: false, headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json', 'content-length': Buffer.byteLength(body) } }, (response) => {
      const chunks = [];
      response.on('data', (chunk) => chunks.push(chunk));
      response.on('end', () => resolve({ status: response.statusCode, code: JSON.parse(Buffer.concat(chunks).toString('utf8') || '{}').error?.code }));
    });
    // The server may answer and close before it has read it all.
    request.on('error', (error) => (error.code === 'EPIPE' || error.code === 'ECONNRESET' ? resolve({ status: 'closed' }) : reject(error)));
    request.end(body);
  });
}

const fill = (prefix, item, suffix, bytes) => `${prefix}${Array.from({ length: Math.floor((bytes - prefix.length - suffix.length) / (item.length + 1)) }, () => item).join(',')}${suffix}`;
const eightMiB = 8 * MiB - 64;
const scenarios = [
  { name: 'one refused 8 MiB body (jobs.start)', path: '/v1/jobs/start', body: fill('{"agentId":"a","prompt":"p","pad":[', '{}', ']}', eightMiB), at: 1 },
  { name: 'eight at once, one token', path: '/v1/jobs/start', body: fill('{"agentId":"a","prompt":"p","pad":[', '{}', ']}', eightMiB), at: 8 },
  { name: '8 MiB of {} as a run state (work.hold)', path: '/v1/work/hold', body: fill('{"jobId":"j","leaseToken":"l","calls":[],"runState":{"s":[', '{}', ']}}', eightMiB), at: 1 },
  { name: '4 million levels of nesting (work.hold)', path: '/v1/work/hold', body: `{"jobId":"j","leaseToken":"l","calls":[],"runState":${'['.repeat(4_000_000)}${']'.repeat(4_000_000)}}`, at: 1 },
];

const results = {};
for (const variant of ['before-parse', 'after']) {
  const server = await startServer(variant);
  for (const scenario of scenarios) {
    const base = await server.rss();
    const answers = await Promise.all(Array.from({ length: scenario.at }, () => post(server.url, scenario.path, server.token, scenario.body)));
    const { peak } = await server.rss();
    (results[scenario.name] ??= {})[variant] = { mib: (peak - base.rss) / MiB, answers: [...new Set(answers.map((answer) => `${answer.status}${answer.code ? ` ${answer.code}` : ''}`))].join(', ') };
  }
  server.stop();
}

console.log(`Peak RSS growth of the server while it answers (target ≤ ${TARGET_MIB} MiB after):`);
console.log('| scenario | before | after | after / before | answers after |');
console.log('|---|---|---|---|---|');
for (const scenario of scenarios) {
  const { 'before-parse': before, after } = results[scenario.name];
  console.log(`| ${scenario.name} | +${before.mib.toFixed(1)} MiB | +${after.mib.toFixed(1)} MiB | ${(after.mib / Math.max(before.mib, 0.1)).toFixed(2)} | ${after.answers} |`);
}
