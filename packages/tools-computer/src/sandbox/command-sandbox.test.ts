import { randomUUID } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { afterAll, afterEach, beforeEach, describe, expect, test } from 'vitest';
import { processesWith, testSandbox } from '../__fixtures__/sandbox.js';
import { callTool, tempDir, textOf, toolNamed } from '../__fixtures__/temp-home.js';
import type { ComputerContext } from '../computer-context.js';
import { createComputerTools } from '../create-computer-tools.js';

// Every escape runs twice: in the sandbox, where it must be refused or contained, and with the sandbox off
// ('unsandboxed'), where it must succeed, so each test shows it can fail.
const { sandbox, available } = await testSandbox('command-sandbox.test.ts');
afterAll(() => sandbox.close());

const root = process.getuid?.() === 0;
let parent: Awaited<ReturnType<typeof tempDir>>;
let home: string;
const leftovers: string[] = [];

beforeEach(async () => {
  parent = await tempDir('ankole-sandbox-test-');
  home = path.join(parent.path, 'agents', 'ada');
  mkdirSync(home, { recursive: true });
});
afterEach(async () => {
  for (const token of leftovers.splice(0)) for (const pid of processesWith(token)) process.kill(pid, 'SIGKILL');
  await parent.dispose();
});

type Mode = 'sandboxed' | 'unsandboxed';
const modes: Mode[] = ['sandboxed', 'unsandboxed'];

function run(mode: Mode, command: string, context: Partial<ComputerContext> = {}, timeoutMs?: number) {
  const tool = toolNamed(createComputerTools({ home, sandbox: mode === 'sandboxed' ? sandbox : 'unsandboxed', ...context }), 'command');
  return callTool(tool, timeoutMs === undefined ? { command } : { command, timeout_ms: timeoutMs });
}

describe.skipIf(!available)('the command sandbox (runs through bubblewrap: skipped where it is missing or cannot start)', () => {
  describe.each(modes)('%s', (mode) => {
    const contained = mode === 'sandboxed';

    test("another agent's home is out of reach", async () => {
      const other = path.join(parent.path, 'agents', 'bob');
      mkdirSync(other);
      writeFileSync(path.join(other, 'secret.txt'), 'bob-secret');
      const result = await run(mode, `cat ../bob/secret.txt; cat ${other}/secret.txt; ls ${path.join(parent.path, 'agents')}`);
      expect(textOf(result).includes('bob-secret')).toBe(!contained);
    });

    test("the worker's environment (/proc/<worker pid>/environ) is out of reach", async () => {
      const result = await run(mode, `tr '\\0' '\\n' < /proc/${process.pid}/environ | grep -c '^PATH='`);
      expect(result.details.exitCode === 0).toBe(!contained);
    });

    test("the worker's data folder and the user's ~/.ssh are out of reach", async () => {
      const data = path.join(parent.path, 'data', 'pg');
      const ssh = path.join(parent.path, 'user-home', '.ssh');
      mkdirSync(data, { recursive: true });
      mkdirSync(ssh, { recursive: true });
      writeFileSync(path.join(data, 'PG_VERSION'), 'data-secret');
      writeFileSync(path.join(ssh, 'id_ed25519'), 'ssh-secret', { mode: 0o600 });
      const result = await run(mode, `cat ${data}/PG_VERSION ${ssh}/id_ed25519 ~/.ssh/id_ed25519 /root/.ssh/* 2>&1; ls /home /root 2>&1`);
      const text = textOf(result);
      expect(text.includes('data-secret')).toBe(!contained);
      expect(text.includes('ssh-secret')).toBe(!contained);
    });

    test('nothing outside the home can be deleted or written', async () => {
      const outside = path.join(parent.path, 'agents', 'escape.txt');
      writeFileSync(outside, 'keep me');
      await run(mode, `rm -v ../escape.txt; echo changed > ${path.join(parent.path, 'written.txt')}; touch /usr/bin/ankole-test-${randomUUID()}`);
      expect(existsSync(outside)).toBe(contained);
      expect(existsSync(path.join(parent.path, 'written.txt'))).toBe(!contained);
    });

    test("a server of the worker on 127.0.0.1 (PostgreSQL, the control plane) cannot be reached", async () => {
      const connections: net.Socket[] = [];
      const server = net.createServer((socket) => {
        connections.push(socket);
        socket.end('hello from the worker\n');
      });
      await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
      const { port } = server.address() as net.AddressInfo;
      try {
        const result = await run(mode, `exec 3<>/dev/tcp/127.0.0.1/${port} && head -1 <&3`);
        expect(textOf(result).includes('hello from the worker')).toBe(!contained);
        expect(connections.length > 0).toBe(!contained);
      } finally {
        server.close();
      }
    });

    test('the network is off: an address of this machine outside loopback cannot be reached either', async () => {
      const address = Object.values(os.networkInterfaces()).flat().find((entry) => entry !== undefined && !entry.internal && entry.family === 'IPv4')?.address;
      if (address === undefined) return; // no interface but loopback here
      const server = net.createServer((socket) => socket.end('reached\n'));
      await new Promise<void>((resolve) => server.listen(0, address, resolve));
      const { port } = server.address() as net.AddressInfo;
      try {
        const result = await run(mode, `exec 3<>/dev/tcp/${address}/${port} && head -1 <&3`);
        expect(textOf(result).includes('reached')).toBe(!contained);
      } finally {
        server.close();
      }
    });

    test('a process that leaves the group and clears its environment (setsid env -i) does not outlive the call', async () => {
      const token = `${Date.now() % 100_000}.${process.pid}`;
      leftovers.push(token);
      const result = await run(mode, `setsid env -i /bin/sh -c 'sleep ${token}' > /dev/null 2>&1 < /dev/null & sleep 0.3; echo started`);
      expect(textOf(result)).toContain('started');
      expect(processesWith(token).length > 0).toBe(!contained);
    });

    test('a timeout kills what the command started, double forks included', async () => {
      const token = `${Date.now() % 100_000}.${process.pid + 1}`;
      leftovers.push(token);
      const result = await run(mode, `(setsid sh -c '(env -i sleep ${token} &)' &) ; sleep 1000`, { limits: { killGraceMs: 200 } }, 1500);
      expect(result.details).toMatchObject({ timedOut: true });
      expect(processesWith(token).length > 0).toBe(!contained);
    });

    test('the memory limit stops a process that takes too much, and says so', async () => {
      const result = await run(mode, `python3 -c "x = bytearray(400 * 1024 * 1024); x[::4096] = b'1' * len(x[::4096]); print('allocated')"`, {
        limits: { commandMemoryBytes: 128 * 1024 * 1024 },
      });
      expect(textOf(result).includes('allocated')).toBe(!contained);
      if (contained && sandboxLimits() !== 'rlimit') {
        expect(result.details.limitsHit).toContain('memory');
        expect(textOf(result)).toContain('Limit hit: memory');
      }
    });

    test('the process limit stops a fork bomb', async () => {
      const result = await run(mode, `python3 -c "
import subprocess
children = []
try:
    for _ in range(120):
        children.append(subprocess.Popen(['sleep', '2']))
    print('started', len(children))
except OSError as error:
    print('refused after', len(children), error)
for child in children: child.kill()
"`, { limits: { commandMaxProcesses: 40 } });
      expect(textOf(result).includes('started 120')).toBe(!contained);
      if (contained) expect(textOf(result)).toContain('refused after');
      if (contained && sandboxLimits() !== 'rlimit') expect(result.details.limitsHit).toContain('processes');
    });

    test('the CPU time limit stops a busy loop before its timeout', async () => {
      const result = await run(mode, 'while :; do :; done', { limits: { commandCpuSeconds: 1, killGraceMs: 200 } }, 8000);
      expect(result.details.timedOut).toBe(!contained);
      if (contained) {
        expect(result.details.limitsHit).toContain('cpu');
        expect(textOf(result)).toContain('Limit hit: CPU time');
      }
    });

    test('the file size limit stops a file growing past it', async () => {
      const result = await run(mode, 'head -c 3000000 /dev/zero > big.bin; ls -l big.bin', { limits: { commandMaxFileBytes: 1024 * 1024 } });
      expect(readFileSync(path.join(home, 'big.bin')).length === 3_000_000).toBe(!contained);
      if (contained) expect(result.details.limitsHit).toContain('file size');
    });

    test.skipIf(!root)('a worker running as root runs commands as an unprivileged user', async () => {
      const result = await run(mode, 'id -u; cat /etc/shadow > /dev/null && echo shadow-read');
      const text = textOf(result);
      expect(text.includes('stdout:\n0\n')).toBe(!contained);
      expect(text.includes('shadow-read')).toBe(!contained);
    });

    test('setuid and setgid bits cannot be set (the sandbox user may be root outside)', async () => {
      const result = await run(mode, `touch f; chmod u+s f; python3 -c "import os; os.close(os.open('g', os.O_CREAT | os.O_WRONLY, 0o6755))"; stat -c '%a' f g`);
      const modes = textOf(result);
      expect(/\b4644\b/.test(modes)).toBe(!contained);
      expect(/\b6755\b/.test(modes)).toBe(!contained);
    });

    test.skipIf(!root)('new namespaces cannot be made (where a process would be root again)', async () => {
      const result = await run(mode, 'unshare -U -r id -u');
      expect(result.details.exitCode === 0).toBe(!contained);
    });

    test('a command cannot type into a terminal (TIOCSTI)', async () => {
      const result = await run(mode, `python3 -c "
import fcntl, termios, errno
try:
    fcntl.ioctl(1, termios.TIOCSTI, b'x')
except OSError as error:
    print(errno.errorcode[error.errno])
"`);
      // Outside, the pipe is no terminal (ENOTTY); inside, the filter answers before the kernel looks (EPERM).
      expect(textOf(result).includes('EPERM')).toBe(contained);
    });
  });

  describe('inside', () => {
    test('everyday commands work: ls, cat, grep -r, pipes, redirection, wc, git, node, python', async () => {
      const result = await run(
        'sandboxed',
        [
          'mkdir -p notes && echo "alpha beta" > notes/a.md && echo "gamma" >> notes/a.md',
          'ls notes && cat notes/a.md | wc -l && grep -r beta . ',
          'git init -q repo && cd repo && echo x > x && git add x && git -c user.email=a@b.c -c user.name=A commit -qm first && git log --oneline | wc -l && cd ..',
          'node -e "console.log(6 * 7)"',
          'python3 -c "print(sum(range(4)))"',
          'echo done > /tmp/t && cat /tmp/t',
        ].join(' && '),
      );
      expect(result.isError, textOf(result)).toBe(false);
      expect(textOf(result)).toMatch(/a\.md\n2\n\.\/notes\/a\.md:alpha beta\n1\n42\n6\ndone/);
    });

    test('the home is the working folder, HOME, and the passwd entry of the sandbox user', async () => {
      const result = await run('sandboxed', 'pwd; echo $HOME; getent passwd $(id -u) | cut -d: -f6; ls -ld /tmp');
      expect(textOf(result)).toContain(`${home}\n${home}\n${home}\n`);
    });

    test("the sandbox's device nodes are not the host's: they cannot be changed", async () => {
      // Setting the mode it already has changes nothing even where it is allowed (bubblewrap's own /dev binds the
      // host's nodes, which the sandbox user owns when the worker is root): only whether it is allowed shows.
      const result = await run('sandboxed', 'chmod 666 /dev/null /dev/zero /dev/urandom && echo changed || echo refused; echo x > /dev/null && head -c 4 /dev/zero | wc -c');
      expect(textOf(result)).toContain('refused\n4');
    });

    test('a missing shell or a removed home is a clear error result', async () => {
      const noShell = toolNamed(createComputerTools({ home, sandbox, shell: '/nonexistent/shell' }), 'command');
      expect(textOf(await callTool(noShell, { command: 'true' }))).toBe('The command could not be started (/nonexistent/shell): /nonexistent/shell does not exist inside the sandbox (ENOENT).');
      const tool = toolNamed(createComputerTools({ home, sandbox }), 'command');
      await parent.dispose();
      expect(textOf(await callTool(tool, { command: 'true' }))).toBe(`The command could not be started (bash): the home folder ${home} no longer exists`);
    });

    test("a home that holds a folder commands must never see (the user's HOME, the data folder) is refused", async () => {
      const userHome = path.join(parent.path, 'user-home');
      mkdirSync(userHome);
      const { sandbox: guarded } = await testSandbox('command-sandbox.test.ts', { protectedPaths: [userHome] });
      try {
        const tool = toolNamed(createComputerTools({ home: parent.path, sandbox: guarded }), 'command');
        const result = await callTool(tool, { command: 'ls' });
        expect(result.details.error.code).toBe('sandbox_failed');
        expect(textOf(result)).toContain(`holds ${userHome}, which commands must never see`);
      } finally {
        await guarded.close();
      }
    });

    test('kernel keys and the host’s processes stay hidden', async () => {
      const result = await run('sandboxed', 'cat /proc/keys | wc -c; ls /proc | grep -c "^[0-9]"');
      const [keys, processes] = (textOf(result).split('stdout:\n')[1] ?? '').trim().split('\n').map(Number);
      expect(keys).toBe(0);
      expect(processes).toBeLessThan(10);
    });
  });

  describe('allowed hosts', () => {
    const resolver = createCommandSandboxResolver();

    test('without an allow list there is no network and no proxy', async () => {
      const result = await run('sandboxed', 'echo "${HTTPS_PROXY:-none}"; curl -sS -m 3 http://example.com/ 2>&1 | head -1');
      expect(textOf(result)).toContain('none');
      expect(textOf(result)).toMatch(/Could not resolve host|Failed to connect|Couldn't connect/);
    });

    test('a host outside the list is refused by the proxy, with a message naming the setting', async () => {
      const result = await run('sandboxed', 'curl -sS -m 5 http://not-listed.test/ ; echo; curl -sS -m 5 https://not-listed.test/ 2>&1', { allowHosts: ['allowed.test'] }, 20_000);
      expect(textOf(result)).toContain("not-listed.test is not in this agent's allowed hosts");
      expect(result.details.networkRefusals.length).toBeGreaterThan(0);
    });

    test('a listed host that resolves to loopback, a private or an IPv4-mapped address is refused', async () => {
      const { sandbox: resolving } = await testSandbox('command-sandbox.test.ts', { resolveHost: resolver });
      try {
        for (const host of ['loopback.test', 'private.test', 'mapped.test', 'metadata.test']) {
          const tool = toolNamed(createComputerTools({ home, sandbox: resolving, allowHosts: ['*.test'] }), 'command');
          const result = await callTool(tool, { command: `curl -sS -m 5 http://${host}/`, timeout_ms: 20_000 });
          expect(textOf(result), host).toMatch(new RegExp(`${host} resolves to .*commands never reach such addresses`));
        }
      } finally {
        await resolving.close();
      }
    });

    test('a listed host with a public address passes the filter (the proxy connects to the address it checked)', async () => {
      const { sandbox: resolving } = await testSandbox('command-sandbox.test.ts', { resolveHost: resolver });
      try {
        const tool = toolNamed(createComputerTools({ home, sandbox: resolving, allowHosts: ['public.test'] }), 'command');
        const result = await callTool(tool, { command: 'curl -sS -m 4 -o /dev/null -w "%{http_code}" http://public.test/; echo', timeout_ms: 20_000 });
        // Whether this machine reaches the internet or not, the proxy tried: no refusal.
        expect(result.details.networkRefusals).toEqual([]);
        expect(textOf(result)).not.toContain('refused');
      } finally {
        await resolving.close();
      }
    });

    test("Node's fetch goes through the proxy too", async () => {
      const result = await run('sandboxed', `node -e "fetch('http://not-listed.test/').then((r) => r.text()).then((t) => console.log(t.trim()), (e) => console.log('failed', e.cause?.code ?? e.message))"`, { allowHosts: ['allowed.test'] }, 20_000);
      expect(textOf(result)).toContain("not-listed.test is not in this agent's allowed hosts");
    });
  });
});

function sandboxLimits(): string {
  return limitsMode;
}
const status = await sandbox.status();
const limitsMode = status.available ? status.limits : 'rlimit';

function createCommandSandboxResolver() {
  const answers: Record<string, string[]> = {
    'loopback.test': ['127.0.0.1'],
    'private.test': ['93.184.215.14', '10.1.2.3'],
    'mapped.test': ['::ffff:127.0.0.1'],
    'metadata.test': ['169.254.169.254'],
  };
  return async (host: string) => answers[host] ?? ['93.184.215.14'];
}
