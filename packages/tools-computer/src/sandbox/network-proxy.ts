import { lookup } from 'node:dns/promises';
import { chmodSync, rmSync } from 'node:fs';
import { createServer, type IncomingMessage, request as httpRequest } from 'node:http';
import { connect, isIP } from 'node:net';
import type { Duplex } from 'node:stream';
import { blockedAddressReason } from '@core/runtime';

/** A running per-call proxy: where it listens, and how to stop it. */
export interface NetworkProxy {
  /** The unix socket it listens on (bound into the sandbox). */
  socketPath: string;
  /** Hosts and addresses it refused during the call, in order (for the tool's result). */
  refusals: string[];
  close(): Promise<void>;
}

/** A resolver: the addresses of a host name (tests pass their own). */
export type ResolveHost = (host: string) => Promise<string[]>;

const systemResolve: ResolveHost = async (host) => (await lookup(host, { all: true, verbatim: true })).map((entry) => entry.address);

/**
 * Whether `host` is in the allow list: an entry matches the host itself (case-insensitive), and `*.example.com`
 * matches every sub-domain of example.com (not example.com itself).
 */
export function hostAllowed(allowHosts: readonly string[], host: string): boolean {
  const name = host.toLowerCase().replace(/\.$/, '');
  return allowHosts.some((entry) => {
    const pattern = entry.toLowerCase().replace(/\.$/, '');
    if (pattern.startsWith('*.')) return name.endsWith(pattern.slice(1)) && name.length > pattern.length - 1;
    return name === pattern;
  });
}

/**
 * Starts the filtering HTTP proxy of one call on a unix socket: `CONNECT host:port` (what HTTPS clients send
 * through `HTTPS_PROXY`) and absolute-URI requests (`GET http://host/…`, plain HTTP through `HTTP_PROXY`). A host
 * not in `allowHosts` is refused (403), and so is any whose addresses include a loopback, private, link-local,
 * reserved or IPv4-mapped one (checked after resolving, and the connection goes to the address checked, so a
 * name that changes its answer cannot slip through). Nothing else leaves the sandbox: its network namespace
 * has only loopback.
 */
export async function startNetworkProxy(options: { socketPath: string; allowHosts: readonly string[]; resolve?: ResolveHost }): Promise<NetworkProxy> {
  const resolve = options.resolve ?? systemResolve;
  const refusals: string[] = [];
  const sockets = new Set<Duplex>();

  /** The address to connect to, or the reason it is refused. */
  const vet = async (host: string): Promise<{ address: string } | { refused: string }> => {
    const bare = host.replace(/^\[|\]$/g, '');
    if (!hostAllowed(options.allowHosts, bare)) return { refused: `${bare} is not in this agent's allowed hosts (commands.allowHosts, --allow-host)` };
    let addresses: string[];
    try {
      addresses = isIP(bare) === 0 ? await resolve(bare) : [bare];
    } catch {
      return { refused: `${bare} does not resolve` };
    }
    for (const address of addresses) {
      const reason = blockedAddressReason(address);
      if (reason !== undefined) return { refused: `${bare} resolves to ${address}, ${reason}; commands never reach such addresses` };
    }
    const address = addresses[0];
    return address === undefined ? { refused: `${bare} has no address` } : { address };
  };
  const refuse = (socket: Duplex, reason: string): void => {
    refusals.push(reason);
    const body = `ankole sandbox: refused: ${reason}\n`;
    socket.end(`HTTP/1.1 403 Forbidden\r\nContent-Type: text/plain\r\nConnection: close\r\nContent-Length: ${Buffer.byteLength(body)}\r\n\r\n${body}`);
  };

  const server = createServer((request, response) => {
    void (async () => {
      let target: URL;
      try {
        target = new URL(request.url ?? '');
        if (target.protocol !== 'http:') throw new Error('not http');
      } catch {
        response.writeHead(400, { 'content-type': 'text/plain' }).end('ankole sandbox: the proxy takes absolute http:// URLs and CONNECT only\n');
        return;
      }
      const vetted = await vet(target.hostname);
      if ('refused' in vetted) {
        refusals.push(vetted.refused);
        response.writeHead(403, { 'content-type': 'text/plain' }).end(`ankole sandbox: refused: ${vetted.refused}\n`);
        return;
      }
      const headers = { ...request.headers };
      for (const name of Object.keys(headers)) if (name.startsWith('proxy-')) delete headers[name];
      const upstream = httpRequest(
        { host: vetted.address, port: target.port === '' ? 80 : Number(target.port), method: request.method, path: `${target.pathname}${target.search}`, headers, setHost: false },
        (answer) => {
          response.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(response);
        },
      );
      upstream.on('error', (error) => {
        if (!response.headersSent) response.writeHead(502, { 'content-type': 'text/plain' });
        response.end(`ankole sandbox: ${target.host} could not be reached (${error.message})\n`);
      });
      request.pipe(upstream);
    })();
  });
  server.on('connect', (request: IncomingMessage, client: Duplex, head: Buffer) => {
    sockets.add(client);
    client.on('close', () => sockets.delete(client));
    client.on('error', () => client.destroy());
    void (async () => {
      const match = /^(\[[^\]]+\]|[^:]+):(\d{1,5})$/.exec(request.url ?? '');
      if (match === null) {
        refuse(client, `"${request.url ?? ''}" is not host:port`);
        return;
      }
      const vetted = await vet(match[1]!);
      if ('refused' in vetted) {
        refuse(client, vetted.refused);
        return;
      }
      const upstream = connect({ host: vetted.address, port: Number(match[2]) });
      sockets.add(upstream);
      upstream.on('close', () => sockets.delete(upstream));
      upstream.once('connect', () => {
        client.write('HTTP/1.1 200 Connection Established\r\n\r\n');
        if (head.length > 0) upstream.write(head);
        upstream.pipe(client);
        client.pipe(upstream);
      });
      upstream.on('error', (error) => {
        if (client.writable && upstream.connecting) client.end(`HTTP/1.1 502 Bad Gateway\r\nConnection: close\r\n\r\nankole sandbox: ${match[1]} could not be reached (${error.message})\n`);
        else client.destroy();
      });
    })();
  });
  server.on('connection', (socket) => {
    sockets.add(socket);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.socketPath, () => resolve());
  });
  // The sandbox user may be another uid than the worker's: let it connect (the folder above is private).
  chmodSync(options.socketPath, 0o666);
  return {
    socketPath: options.socketPath,
    refusals,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
      rmSync(options.socketPath, { force: true });
    },
  };
}
