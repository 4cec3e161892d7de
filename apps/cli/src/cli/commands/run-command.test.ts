import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { createServer as createHttpServer } from 'node:http';
import type { AddressInfo } from 'node:net';
import { mkdtemp, readFile, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { functionCallOutputs, officialOpenapiDocument, reply, startTestModelServer, type TestModelServer } from '@core/testkit';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { writeMcpConfig } from '../../__fixtures__/mcp-config.js';
import { COMMANDS_HEADER, runCliProcess, spawnCli, type CliProcess } from '../../__fixtures__/spawn-cli.js';

// The testkit checks requests against its own description; against the official document too when it is present.
const official = officialOpenapiDocument();

let scratch: string;
let home: string;
let env: Record<string, string>;
let server: TestModelServer | undefined;
let running: CliProcess | undefined;

beforeEach(async () => {
  scratch = await mkdtemp(path.join(tmpdir(), 'ankole-cli-'));
  home = path.join(scratch, 'home');
  await import('node:fs/promises').then((fs) => fs.mkdir(home));
  // Without a terminal destructive calls are denied unless approved: these turns are about other things.
  env = { HOME: scratch, XDG_DATA_HOME: path.join(scratch, 'data'), ANKOLE_APPROVE: 'auto' };
});

afterEach(async () => {
  running?.child.kill('SIGKILL');
  running = undefined;
  await server?.close();
  server = undefined;
  await rm(scratch, { recursive: true, force: true });
});

/** Whether a process is gone (or a zombie) within a few seconds: killing is asynchronous. */
/** A sleep with an argument no other process has (seconds: 60 and a fraction). */
const SLEEP_TOKEN = `60.${process.pid}`;

/** The live process whose command line holds `token`. */
function processWith(token: string): number | undefined {
  for (const entry of readdirSync('/proc')) {
    if (!/^\d+$/.test(entry)) continue;
    try {
      if (readFileSync(`/proc/${entry}/cmdline`, 'utf8').split('\0').includes(token)) return Number(entry);
    } catch {
      // gone
    }
  }
  return undefined;
}

async function gone(pid: number): Promise<boolean> {
  for (let attempt = 0; attempt < 100; attempt += 1) {
    let state: string | undefined;
    try {
      state = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1]?.[0];
    } catch {
      return true;
    }
    if (state === 'Z') return true;
    await new Promise((resolve) => setTimeout(resolve, 50));
  }
  return false;
}

function lines(text: string): string[] {
  return text.split('\n');
}

describe('ankole run with the offline demo model (piped)', () => {
  it('says so first, drives the real tools, repairs the malformed call and ends with a summary', async () => {
    const { code, stdout, stderr } = await runCliProcess(['run', '--home', home], env);
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines(stdout)[0]).toMatch(/^Running the offline demo model \(OPENAI_API_KEY is not set\)/);
    // Piped: plain lines, no escape codes.
    expect(stdout).not.toMatch(/\u001b/);
    expect(stdout).toContain('✓ Updated plan (0/4 done)');
    expect(stdout).toContain('    ✓ Write the notes');
    expect(stdout).toMatch(/✓ Created ankole-demo\/notes\/ideas\.md .* · repaired arguments: extracted, syntax_repaired/);
    expect(stdout).toMatch(/✓ Ran `cd ankole-demo\/notes && wc -l -w \*\.md && ls -l` \(exit 0/);
    // The final answer quotes what the tools really returned.
    expect(stdout).toMatch(/5\s+22 ideas\.md/);
    expect(stdout).toContain('ankole-demo/notes/ideas.md:5: - TODO: point the CLI at a real model');
    expect(lines(stdout).at(-2)).toMatch(/^── Completed · 6 steps · 11 tool calls · [\d,]+ tokens \([\d,]+ in, [\d,]+ out\) · /);
    // The file events of write_file, listed once before the summary.
    expect(lines(stdout).slice(-7, -3)).toEqual(['', 'Files changed', '  ▤ created ankole-demo/notes/README.md (214 B)', '  ▤ created ankole-demo/notes/ideas.md (105 B)']);
    expect(await readFile(path.join(home, 'ankole-demo/notes/ideas.md'), 'utf8')).toContain('- TODO: point the CLI at a real model');
    expect(JSON.parse(await readFile(path.join(home, '.ankole/todos.json'), 'utf8')).items).toHaveLength(4);
  });

  it('runs the four reads as one parallel batch: all four start before any of them ends', async () => {
    const { stdout } = await runCliProcess(['run', '--home', home], env);
    const all = lines(stdout);
    const started = ['… Reading ankole-demo/notes/README.md', '… Reading ankole-demo/notes/ideas.md', '… Listing **/*.md in ankole-demo', '… Searching for TODO'].map(
      (line) => all.indexOf(line),
    );
    const firstEnd = all.findIndex((line, index) => index > Math.min(...started) && /^✓ (Read|Listed|Searched)/.test(line));
    expect(started.every((index) => index !== -1)).toBe(true);
    expect(Math.max(...started)).toBeLessThan(firstEnd);
  });

  it('prints the typed events, one JSON object a line, with --json', async () => {
    const { code, stdout } = await runCliProcess(['run', '--home', home, '--json'], env);
    expect(code).toBe(0);
    const events = stdout.trim().split('\n').map((line) => JSON.parse(line) as { type: string; [key: string]: unknown });
    expect(events[0]).toMatchObject({ type: 'run.started', offlineDemo: true, model: 'ankole-offline-demo', home });
    expect(String(events[0]?.notice)).toMatch(/^Running the offline demo model/);
    const repaired = events.find((event) => event.type === 'activity.completed' && event.callId === 'call_write_ideas');
    expect(repaired).toMatchObject({ status: 'success', repairs: [{ kind: 'extracted' }, { kind: 'syntax_repaired' }] });
    const checklists = events.filter((event) => event.type === 'presentation' && (event.event as { kind?: string }).kind === 'checklist');
    expect(checklists).toHaveLength(4);
    const files = events.filter((event) => event.type === 'presentation' && (event.event as { kind?: string }).kind === 'file');
    expect(files.map((event) => event.event)).toEqual([
      { kind: 'file', path: 'ankole-demo/notes/README.md', action: 'created', bytes: 214 },
      { kind: 'file', path: 'ankole-demo/notes/ideas.md', action: 'created', bytes: 105 },
    ]);
    expect(events.at(-2)).toMatchObject({ type: 'turn.completed', reason: 'completed', steps: 6 });
    expect(events.at(-1)).toMatchObject({ type: 'run.completed', exitCode: 0, toolCalls: 11, interrupted: false });
  });
});

describe('ankole run with a real model configuration', () => {
  it('talks to OPENAI_BASE_URL with OPENAI_API_KEY and --model, through the real tools', async () => {
    server = await startTestModelServer({
      ...(official.present ? { openapiPath: official.path } : {}),
      script: [
        reply.functionCalls([{ name: 'command', callId: 'call_echo', arguments: { command: 'echo hello from the shell; echo "secret=${SECRET:-unset} greeting=$GREETING"' } }]),
        (request) => {
          const output = request.body.input.find((item: { type: string }) => item.type === 'function_call_output');
          const text = String(output?.output);
          return reply.text(`The shell said: ${text.includes('hello from the shell') ? 'hello' : 'nothing'}; ${/secret=\S+ greeting=\S+/.exec(text)?.[0]}`);
        },
      ],
    });
    const { code, stdout, stderr } = await runCliProcess(['run', '--home', home, '--model', 'test-model', '--env', 'GREETING', '--env', 'LANGUAGE=fr', 'Say hello through the shell'], {
      ...env,
      OPENAI_API_KEY: 'sk-test-key',
      OPENAI_BASE_URL: server.baseURL,
      GREETING: 'bonjour',
      SECRET: 'do-not-leak',
    });
    expect(stderr).toBe('');
    expect(code).toBe(0);
    expect(lines(stdout)[0]).toBe(`Running test-model at ${server.baseURL}.`);
    // Commands see only the variables --env allows, never the rest of the CLI's environment.
    expect(stdout).toContain('The shell said: hello; secret=unset greeting=bonjour');
    expect(server.requests).toHaveLength(2);
    const first = server.requests[0];
    expect(first?.headers.authorization).toBe('Bearer sk-test-key');
    expect(first?.body.model).toBe('test-model');
    expect(first?.body.tools.map((tool: { name: string }) => tool.name)).toEqual([
      'todo_write',
      'command',
      'read_file',
      'list_files',
      'search_files',
      'write_file',
      'edit_file',
    ]);
    // `ankole tools --schemas` prints exactly the tools payload the turn sent.
    const schemas = await runCliProcess(['tools', '--home', home, '--schemas', '--json'], env);
    expect((JSON.parse(schemas.stdout) as { tools: unknown }).tools).toEqual(first?.body.tools);
  });
});

describe('ankole run with web search bound (--web-search searxng)', () => {
  it("draws the links of web_search's presentation event under its line, without the page's control characters", async () => {
    // A local stand-in for a SearXNG instance, answering in its documented JSON format.
    const searx = createHttpServer((request, response) => {
      const query = new URL(request.url ?? '/', 'http://localhost').searchParams.get('q');
      response.setHeader('content-type', 'application/json');
      response.end(
        JSON.stringify({
          query,
          results: [
            { url: 'https://en.wikipedia.org/wiki/Ankole-Watusi', title: 'Ankole-Watusi - Wikipedia', content: 'A breed of cattle.' },
            { url: 'https://example.com/evil', title: 'Evil\u001b[2J title', content: 'x' },
          ],
        }),
      );
    });
    await new Promise<void>((resolve) => searx.listen(0, '127.0.0.1', resolve));
    const address = searx.address() as AddressInfo;
    try {
      server = await startTestModelServer({
        script: [reply.functionCalls([{ name: 'web_search', arguments: { query: 'ankole cattle' } }]), reply.text('Found two pages.')],
      });
      const { code, stdout } = await runCliProcess(['run', '--home', home, '--web-search', 'searxng', 'Search the web for ankole cattle'], {
        ...env,
        OPENAI_API_KEY: 'k',
        OPENAI_BASE_URL: server.baseURL,
        SEARXNG_URL: `http://127.0.0.1:${address.port}`,
      });
      expect(code).toBe(0);
      const all = lines(stdout);
      const searched = all.findIndex((line) => /^✓ .*"ankole cattle"/.test(line));
      expect(searched).not.toBe(-1);
      expect(all.slice(searched + 1, searched + 3)).toEqual([
        '  ↗ Ankole-Watusi - Wikipedia <https://en.wikipedia.org/wiki/Ankole-Watusi>',
        '  ↗ Evil[2J title <https://example.com/evil>',
      ]);
      expect(stdout).not.toContain('\u001b');
    } finally {
      await new Promise((resolve) => searx.close(resolve));
    }
  });
});

describe('ankole run with MCP servers configured (--mcp-config)', () => {
  it('calls a tool of the real server-everything in its namespace and the result reaches the model', async () => {
    const config = await writeMcpConfig(scratch);
    server = await startTestModelServer({
      script: [
        reply.functionCalls([{ name: 'get-sum', namespace: 'everything', callId: 'call_sum', arguments: { a: 2, b: 40 } }]),
        (request) => {
          const output = request.body.input.find((item: { type: string; call_id?: string }) => item.type === 'function_call_output' && item.call_id === 'call_sum');
          return reply.text(`The server said: ${JSON.stringify(output?.output)}`);
        },
      ],
    });
    const { code, stdout } = await runCliProcess(['run', '--home', home, '--mcp-config', config, 'Add 2 and 40'], {
      ...env,
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: server.baseURL,
    });
    expect(code).toBe(0);
    expect(stdout).toMatch(/^! .*"down"/m);
    expect(stdout).toMatch(/✓ Called everything\.get-sum/);
    expect(stdout).toMatch(/The server said: .*42/);
  }, 40_000);

  it('lets the MCP servers see the variables --env allows, and no other variable of the CLI', async () => {
    const config = await writeMcpConfig(scratch);
    server = await startTestModelServer({
      script: [
        reply.functionCalls([{ name: 'get-env', namespace: 'everything', callId: 'call_env', arguments: {} }]),
        (request) => {
          const output = request.body.input.find((item: { type: string; call_id?: string }) => item.type === 'function_call_output' && item.call_id === 'call_env');
          return reply.text(`ENV ${typeof output?.output === 'string' ? output.output : JSON.stringify(output?.output)}`);
        },
      ],
    });
    const { code, stdout } = await runCliProcess(
      ['run', '--json', '--home', home, '--mcp-config', config, '--env', 'GIVEN_VALUE=from-option', '--env', 'FROM_CLI', 'Show the environment'],
      { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL, FROM_CLI: 'from-the-cli', NOT_ALLOWED: 'secret' },
    );
    expect(code).toBe(0);
    const [output] = functionCallOutputs(server.requests.at(-1)!);
    expect(output).toMatchObject({ call_id: 'call_env', output: expect.any(String) });
    const seen = JSON.parse(output!.output as string) as Record<string, string>;
    expect(seen).toMatchObject({ GIVEN_VALUE: 'from-option', FROM_CLI: 'from-the-cli' });
    expect(seen).not.toHaveProperty('NOT_ALLOWED');
    expect(seen).not.toHaveProperty('OPENAI_API_KEY');
    expect(stdout).toContain('ENV {');
  }, 40_000);
});

describe('ankole run with a control plane bound (--data-dir, the embedded database)', () => {
  it('gets the schedule, job and workflow tools; a schedule the model creates is listed by `ankole schedules`', async () => {
    const dataDir = path.join(scratch, 'db');
    server = await startTestModelServer({
      script: [
        reply.functionCalls([
          { name: 'schedule_create', arguments: { prompt: 'Summarise the inbox', title: 'Morning summary', cron: '0 9 * * *', timeZone: 'UTC' } },
        ]),
        reply.text('Scheduled.'),
      ],
    });
    const run = await runCliProcess(['run', '--home', home, '--data-dir', dataDir, 'Every morning at 9, summarise my inbox'], {
      ...env,
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: server.baseURL,
      // Creating the embedded database takes tens of seconds on a busy machine.
    }, 90_000);
    // Opened at the model's first control-plane call, created then: the one line says what the seconds are for.
    expect(run.stderr).toBe(`ankole: Creating the embedded database in ${dataDir} (first use, a few seconds)…\n`);
    expect(run.code).toBe(0);
    expect(lines(run.stdout)[1]).toContain(`· 18 tools · ${COMMANDS_HEADER} · schedules and jobs in the embedded database in `);
    expect(run.stdout).toMatch(/✓ .*Morning summary|✓ .*schedule/i);
    const toolNames = server.requests[0]?.body.tools.map((tool: { name: string }) => tool.name);
    expect(toolNames.slice(7)).toEqual([
      'schedule_create',
      'schedule_list',
      'schedule_cancel',
      'start_background_job',
      'get_background_job',
      'list_background_jobs',
      'cancel_background_job',
      'workflow',
      'show_workflow',
      'list_workflows',
      'cancel_workflow',
    ]);
    const listed = await runCliProcess(['schedules', '--data-dir', dataDir, '--json'], env);
    expect(listed.code).toBe(0);
    expect(JSON.parse(listed.stdout)).toMatchObject([{ prompt: 'Summarise the inbox', agentId: 'default' }]);
  }, 150_000);
});

describe('the step limit', () => {
  it('stops at --max-steps, says so in one sentence and exits with 1', async () => {
    server = await startTestModelServer({
      script: [reply.functionCalls([{ name: 'list_files', arguments: {} }]), reply.functionCalls([{ name: 'list_files', arguments: {} }])],
    });
    const { code, stdout, stderr } = await runCliProcess(['run', '--home', home, '--max-steps', '1', 'List forever'], {
      ...env,
      OPENAI_API_KEY: 'k',
      OPENAI_BASE_URL: server.baseURL,
    });
    expect(code).toBe(1);
    expect(stderr).toBe('ankole: The turn stopped after 1 model call (the --max-steps limit) before the model finished.\n');
    expect(lines(stdout).at(-2)).toMatch(/^── Stopped at the step limit \(--max-steps\) · 1 step · 1 tool call · /);
    expect(server.requests).toHaveLength(1);
  });
});

describe('Ctrl-C', () => {
  it('aborts the running tool (its process is killed), prints the summary and exits with 130', async () => {
    server = await startTestModelServer({
      script: [
        reply.functionCalls([{ name: 'command', callId: 'call_sleep', arguments: { command: `sleep ${SLEEP_TOKEN} & echo started > sleep.pid; wait` } }]),
        reply.text('never reached'),
      ],
    });
    running = spawnCli(['run', '--home', home, 'Wait a minute'], { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL });
    await running.waitForOutput('… Running `sleep 60');
    const pidFile = path.join(home, 'sleep.pid');
    for (let attempt = 0; attempt < 100 && !existsSync(pidFile); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    // The sandbox has its own pids: the sleep is found outside by its unique argument.
    const sleepPid = processWith(SLEEP_TOKEN);
    expect(sleepPid).toBeDefined();
    running.child.kill('SIGINT');
    const { code } = await running.exited;
    expect(code).toBe(130);
    const stdout = running.stdout();
    expect(stdout).toContain('Interrupted (Ctrl-C): aborting the turn');
    expect(stdout).toMatch(/✗ .*sleep 60.* aborted/);
    // The person sees what was stopped and why, in one sentence.
    expect(stdout).toContain('command was stopped before it finished because the turn was interrupted (Ctrl-C)');
    expect(lines(stdout).at(-2)).toMatch(/^── Aborted by Ctrl-C: running tools were stopped · 1 step · 1 tool call · /);
    expect(await gone(sleepPid!)).toBe(true);
    // The model was not called again after the abort.
    expect(server.requests).toHaveLength(1);
  });

  it('SIGTERM (a kill, a timeout) does the same: the running command is killed too, exit code 143', async () => {
    server = await startTestModelServer({
      script: [
        reply.functionCalls([{ name: 'command', callId: 'call_sleep', arguments: { command: `sleep ${SLEEP_TOKEN} & echo started > sleep.pid; wait` } }]),
        reply.text('never reached'),
      ],
    });
    running = spawnCli(['run', '--home', home, '--json', 'Wait a minute'], { ...env, OPENAI_API_KEY: 'k', OPENAI_BASE_URL: server.baseURL });
    await running.waitForOutput('"type":"activity.started"');
    const pidFile = path.join(home, 'sleep.pid');
    for (let attempt = 0; attempt < 100 && !existsSync(pidFile); attempt += 1) await new Promise((resolve) => setTimeout(resolve, 50));
    // The sandbox has its own pids: the sleep is found outside by its unique argument.
    const sleepPid = processWith(SLEEP_TOKEN);
    expect(sleepPid).toBeDefined();
    running.child.kill('SIGTERM');
    const { code } = await running.exited;
    expect(code).toBe(143);
    const events = running.stdout().trim().split('\n').map((line) => JSON.parse(line) as { type: string });
    expect(events).toContainEqual({ type: 'run.interrupted', signal: 'SIGTERM' });
    expect(events).toContainEqual(
      expect.objectContaining({
        type: 'activity.completed',
        status: 'aborted',
        error: 'Error: command was stopped before it finished because the turn was terminated (SIGTERM); anything it did until then stays done.',
      }),
    );
    expect(events.at(-1)).toMatchObject({ type: 'run.completed', exitCode: 143, interrupted: true, signal: 'SIGTERM' });
    expect(await gone(sleepPid!)).toBe(true);
    expect(server.requests).toHaveLength(1);
  });
});
