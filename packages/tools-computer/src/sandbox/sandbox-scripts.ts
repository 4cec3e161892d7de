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
