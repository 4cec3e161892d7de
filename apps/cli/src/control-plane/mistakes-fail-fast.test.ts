import { mkdir, mkdtemp, rm, stat, writeFile } from 'node:fs/promises';
import { createServer as createHttpServer } from 'node:http';
import { createServer, type Server } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { lastUserText, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { runCliProcess, spawnCli, type CliProcess } from '../__fixtures__/spawn-cli.js';

// Mistakes users make with a served control plane and a model server: each fails at once with one sentence, or works.
let model: TestModelServer;
let scratch: string;

beforeAll(async () => {
  model = await startTestModelServer({ script: [], onExhausted: (request) => reply.text(`answer to: ${lastUserText(request) ?? ''}`) });
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-mistakes-'));
});
afterAll(async () => {
  await model.close();
  await rm(scratch, { recursive: true, force: true });
});

function listen(server: Server | ReturnType<typeof createHttpServer>): Promise<number> {
  return new Promise((resolve) => server.listen(0, '127.0.0.1', () => resolve((server.address() as { port: number }).port)));
}

async function freePort(): Promise<number> {
  const probe = createServer();
  const port = await listen(probe);
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

function environment(name: string): Record<string, string> {
  const home = path.join(scratch, name);
  return { HOME: home, XDG_DATA_HOME: path.join(home, 'data'), XDG_CONFIG_HOME: path.join(home, 'config'), TERM: 'dumb' };
}

describe('mistakes fail fast with one sentence', () => {
  it('`serve` on a busy port says so before creating any database (exit 2)', async () => {
    const busy = createServer();
    const port = await listen(busy);
    try {
      const dataDir = path.join(scratch, 'busy-port-db');
      const result = await runCliProcess(['serve', '--port', String(port), '--data-dir', dataDir], environment('busy'), 60_000);
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 2,
        stderr: `ankole: Port ${port} on 127.0.0.1 is in use by another program: stop it, or give \`ankole serve\` another --port.\n`,
      });
      expect(await stat(dataDir).then(() => true, () => false)).toBe(false);
    } finally {
      await new Promise((resolve) => busy.close(resolve));
    }
  }, 60_000);

  describe('against a served control plane', () => {
    let served: CliProcess;
    let url: string;
    let token: string;
    const env = () => ({ ...environment('served'), OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL });

    beforeAll(async () => {
      const port = await freePort();
      served = spawnCli(['serve', '--port', String(port)], env());
      await served.waitForOutput('Serving the control plane', 90_000);
      url = `http://127.0.0.1:${port}`;
      const made = await runCliProcess(['tokens', 'create', '--worker', '--json'], env(), 60_000);
      expect(made.code).toBe(0);
      token = (JSON.parse(made.stdout) as { token: string }).token;
    }, 120_000);
    afterAll(async () => {
      served.child.kill('SIGTERM');
      await served.exited;
    });

    it('a URL given with /v1 or a trailing slash works, with the token given as --token', async () => {
      for (const given of [`${url}/v1`, `${url}/v1/`, `${url}/`]) {
        const result = await runCliProcess(['jobs', 'list', '--control-plane', given, '--token', token], environment('client'), 60_000);
        expect({ given, code: result.code, stdout: result.stdout }).toEqual({ given, code: 0, stdout: 'No background jobs for agent default.\n' });
      }
    }, 60_000);

    it('a URL that is not the control plane is refused in one sentence (exit 2)', async () => {
      const result = await runCliProcess(['jobs', 'list', '--control-plane', `${url}/api`, '--token', token], environment('client'), 60_000);
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 2,
        stderr: `ankole: ${url}/api does not answer as an Ankole control plane (HTTP 404 for its calls); give the URL \`ankole serve\` prints, like http://127.0.0.1:7070.\n`,
      });
    }, 60_000);

    it('a remote worker without a token exits 2 at start with one sentence', async () => {
      const result = await runCliProcess(['worker', '--control-plane', url], { ...environment('worker'), OPENAI_API_KEY: 'test', OPENAI_BASE_URL: model.baseURL }, 60_000);
      expect({ code: result.code, stderr: result.stderr }).toEqual({
        code: 2,
        stderr: `ankole: The control plane at ${url} needs a worker token and no token was given: make one with \`ankole tokens create --worker\` and pass it with --token or ANKOLE_CONTROL_PLANE_TOKEN.\n`,
      });
    }, 60_000);
  });

  it('a server that is not a control plane at all (HTML 404) is refused in one sentence', async () => {
    const other = createHttpServer((_request, response) => {
      response.writeHead(404, { 'content-type': 'text/html' }).end('<html>Not Found</html>');
    });
    const port = await listen(other);
    try {
      const result = await runCliProcess(['jobs', 'list', '--control-plane', `http://127.0.0.1:${port}`], environment('client'), 60_000);
      expect(result.code).toBe(2);
      expect(result.stderr).toBe(`ankole: http://127.0.0.1:${port} does not answer as an Ankole control plane (HTTP 404 for its calls); give the URL \`ankole serve\` prints, like http://127.0.0.1:7070.\n`);
    } finally {
      await new Promise((resolve) => other.close(resolve));
    }
  }, 60_000);

  it('a keyless local server (a base URL, no key) is used, not the demo model', async () => {
    const before = model.requests.length;
    const result = await runCliProcess(['run', 'hello keyless'], { ...environment('keyless'), OPENAI_BASE_URL: model.baseURL }, 60_000);
    expect(result.code).toBe(0);
    expect(result.stdout.split('\n')[0]).toContain(`at ${model.baseURL} (from OPENAI_BASE_URL, without a key: OPENAI_API_KEY is not set)`);
    expect(result.stdout).toContain('answer to: hello keyless');
    expect(model.requests.length).toBeGreaterThan(before);
  }, 60_000);

  it('a base URL from config.json is named as such when its server cannot be reached', async () => {
    const env = environment('configured');
    await mkdir(path.join(env.XDG_CONFIG_HOME!, 'ankole'), { recursive: true });
    const configFile = path.join(env.XDG_CONFIG_HOME!, 'ankole', 'config.json');
    await writeFile(configFile, JSON.stringify({ baseURL: `http://127.0.0.1:${await freePort()}/v1` }));
    const result = await runCliProcess(['run', 'hello'], env, 60_000);
    expect(result.code).toBe(1);
    expect(result.stdout.split('\n')[0]).toContain(`(from baseURL in ${configFile}, without a key`);
    expect(result.stderr).toContain(`check baseURL in ${configFile} and your network.`);
  }, 60_000);
});
