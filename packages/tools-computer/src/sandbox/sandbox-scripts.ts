/** Where the network scripts and the proxy socket appear inside the sandbox. */
export const SANDBOX_NET_DIR = '/run/ankole';

/**
 * The bridge that runs first inside a sandbox with allowed hosts (`node bridge.mjs <socket> <shell> -c <command>`):
 * it listens on 127.0.0.1 in the sandbox's own network namespace, forwards each connection to the per-call proxy's
 * unix socket, and runs the command with `HTTP_PROXY`/`HTTPS_PROXY` (and lower-case) pointing at itself, and Node's
 * `fetch` routed there too (the preload). It ignores SIGTERM (the command gets its own) and exits with the
 * command's status.
 */
export const BRIDGE_SCRIPT = `import net from 'node:net';
import { spawn } from 'node:child_process';
const [socketPath, preload, shell, ...args] = process.argv.slice(2);
const server = net.createServer((client) => {
  const upstream = net.connect(socketPath);
  const close = () => { client.destroy(); upstream.destroy(); };
  client.on('error', close);
  upstream.on('error', close);
  client.pipe(upstream).pipe(client);
});
process.on('SIGTERM', () => {});
server.listen(0, '127.0.0.1', () => {
  const url = 'http://127.0.0.1:' + server.address().port;
  const env = { ...process.env, HTTP_PROXY: url, HTTPS_PROXY: url, http_proxy: url, https_proxy: url, NO_PROXY: '', no_proxy: '' };
  env.NODE_OPTIONS = ((env.NODE_OPTIONS ?? '') + ' --import ' + preload).trim();
  const child = spawn(shell, args, { stdio: 'inherit', env });
  child.on('error', (error) => { process.stderr.write('ankole sandbox: ' + error.message + '\\n'); process.exit(127); });
  child.on('exit', (code, signal) => process.exit(code ?? 128 + (signal === null ? 0 : ({ SIGKILL: 9, SIGTERM: 15, SIGINT: 2, SIGXCPU: 24, SIGXFSZ: 25, SIGSEGV: 11, SIGABRT: 6 }[signal] ?? 1))));
});
`;

/** The preload that routes Node's built-in `fetch` through the proxy variables (undici's EnvHttpProxyAgent). */
export function fetchPreloadScript(undiciEntry: string): string {
  return `import { EnvHttpProxyAgent, setGlobalDispatcher } from ${JSON.stringify(undiciEntry)};\nsetGlobalDispatcher(new EnvHttpProxyAgent());\n`;
}

/**
 * The launcher: the first process of every sandboxed call, run by `sh` (dash where present) outside the sandbox.
 * Arguments: CPU seconds, file size in the shell's `ulimit -f` blocks, process limit (`-` for none), whether to wait
 * for the worker to place it in the call's cgroup (`1`: it reads `go` on descriptor 4 once the worker has written
 * its pid into the cgroup, which overlaps the kernel's slow cgroup move with this shell's start), `--`, and the
 * bubblewrap command line it becomes. It sets the limits (inherited by everything the command starts), makes itself
 * the OOM killer's first choice, waits, then `exec`s bubblewrap, so the pid the worker holds is bubblewrap's.
 */
export function launcherScript(processLimitFlag: string): string {
  return [
    'c=$1; f=$2; p=$3; w=$4; shift 5',
    'ulimit -S -t $c && ulimit -H -t $((c + 5)) && ulimit -f $f || { echo "ankole sandbox: cannot set the CPU and file size limits" >&2; exit 125; }',
    `[ "$p" = - ] || ulimit ${processLimitFlag} $p || { echo "ankole sandbox: cannot set the process limit" >&2; exit 125; }`,
    'echo 1000 > /proc/self/oom_score_adj 2>/dev/null',
    'if [ "$w" = 1 ]; then read -r go <&4 && [ "$go" = go ] || { echo "ankole sandbox: not placed in the cgroup of the call" >&2; exit 125; }; exec 4<&-; fi',
    'exec "$@"',
  ].join('\n');
}
