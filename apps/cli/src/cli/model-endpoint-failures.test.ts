import { mkdtemp, readdir, rm } from 'node:fs/promises';
import { createServer } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { runCliProcess } from '../__fixtures__/spawn-cli.js';

// A wrong or unreachable model endpoint, as a user meets it: `ankole worker` refuses to start (exit 1, one sentence,
// no work claimed), and `ankole run --json` words the failure once (the turn's end event and the run's end agree).
let scratch: string;
let server: TestModelServer | undefined;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-endpoint-'));
});
afterEach(async () => {
  await server?.close();
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

async function closedPort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
  const address = probe.address() as { port: number };
  await new Promise((resolve) => probe.close(resolve));
  return address.port;
}

describe('a model endpoint that fails', () => {
  it('ankole worker checks the endpoint before it opens the queue: unreachable is exit 1 and one sentence', async () => {
    const baseURL = `http://127.0.0.1:${await closedPort()}/v1`;
    const dataDir = path.join(scratch, 'data');
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: baseURL, HOME: scratch, XDG_DATA_HOME: scratch };
    const { code, stdout, stderr } = await runCliProcess(['worker', '--data-dir', dataDir], env);
    expect(code).toBe(1);
    expect(stderr.trimEnd().split('\n')).toEqual([
      expect.stringMatching(new RegExp(`^ankole: Could not reach the model endpoint ${baseURL} \\(.*ECONNREFUSED.*\\): check OPENAI_BASE_URL and your network\\.$`)),
    ]);
    expect(stdout).toBe('');
    // Nothing was opened: no embedded database was created (only the CLI's compile cache, ~/.cache, was written).
    expect((await readdir(scratch)).filter((name) => name !== '.cache')).toEqual([]);
  });

  it('ankole worker with a refused key: exit 1, the key named', async () => {
    const refusing = await startRefusingServer();
    const env = { OPENAI_API_KEY: 'sk-wrong', OPENAI_BASE_URL: refusing.baseURL, HOME: scratch, XDG_DATA_HOME: scratch };
    try {
      const { code, stderr } = await runCliProcess(['worker', '--data-dir', path.join(scratch, 'data')], env);
      expect(code).toBe(1);
      expect(stderr.trimEnd()).toBe(`ankole: The API key was refused by the model endpoint ${refusing.baseURL} (HTTP 401): check OPENAI_API_KEY.`);
    } finally {
      await refusing.close();
    }
  });

  it('ankole run --json: turn.completed.error and run.completed.failure are the same sentence', async () => {
    server = await startTestModelServer({ script: [], onExhausted: reply.serverError(500, { message: 'The server had an error.' }) });
    const env = { OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL, HOME: scratch, XDG_DATA_HOME: scratch };
    const { code, stdout, stderr } = await runCliProcess(['run', '--json', '--home', scratch, 'hi'], env, 60_000);
    expect(code).toBe(1);
    const events = stdout.trimEnd().split('\n').map((line) => JSON.parse(line) as { type: string; error?: string; failure?: string });
    const turnError = events.find((event) => event.type === 'turn.completed')?.error;
    const runFailure = events.find((event) => event.type === 'run.completed')?.failure;
    expect(turnError).toBe(`The model endpoint ${server.baseURL} failed with HTTP 500 (The server had an error): try again later.`);
    expect(runFailure).toBe(turnError);
    expect(stderr.trimEnd()).toBe(`ankole: ${turnError}`);
  });
});

/** An HTTP server that answers every request 401, as an endpoint refusing the key does. */
async function startRefusingServer(): Promise<{ baseURL: string; close: () => Promise<void> }> {
  const { createServer: createHttpServer } = await import('node:http');
  const http = createHttpServer((_request, response) => {
    response.writeHead(401, { 'content-type': 'application/json' }).end(JSON.stringify({ error: { message: 'Incorrect API key provided.', type: 'invalid_request_error', code: 'invalid_api_key' } }));
  });
  await new Promise<void>((resolve) => http.listen(0, '127.0.0.1', resolve));
  const { port } = http.address() as { port: number };
  return { baseURL: `http://127.0.0.1:${port}/v1`, close: () => new Promise((resolve) => http.close(() => resolve())) };
}
