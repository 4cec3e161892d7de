import type { ControlPlane } from '@core/control-plane';
import type { ControlPlaneClient } from '@core/control-plane-client';

/** A control plane opened at its first call, and how to let go of it. */
export interface LazyControlPlane {
  /** Every `client.<api>.<method>(input)` opens the control plane first (once; again after a failed open). */
  client: ControlPlaneClient;
  /** Whether it was opened. */
  opened(): boolean;
  /** Closes it when it was opened; nothing otherwise. */
  close(): Promise<void>;
}

/**
 * A control plane client that opens the control plane only when a call is made: a turn that never calls a schedule,
 * job, workflow or Brain tool never pays for opening the database (seconds for the embedded one). Concurrent first
 * calls share one open; an open that fails fails those calls (the tool's error output) and the next call tries again.
 */
export function createLazyControlPlane(open: () => Promise<Pick<ControlPlane, 'client' | 'close'>>): LazyControlPlane {
  let opening: Promise<Pick<ControlPlane, 'client' | 'close'>> | undefined;
  let closed = false;
  const get = (): Promise<Pick<ControlPlane, 'client' | 'close'>> => {
    if (closed) return Promise.reject(new Error('The control plane was already closed: the turn is over.'));
    opening ??= open().catch((error: unknown) => {
      opening = undefined;
      throw error;
    });
    return opening;
  };
  const apis = new Map<string, unknown>();
  const api = (name: string): unknown => {
    let methods = apis.get(name);
    if (methods === undefined) {
      methods = new Proxy(
        {},
        {
          get: (_target, method) =>
            typeof method !== 'string' || method === 'then'
              ? undefined
              : async (input: unknown) => {
                  const { client } = await get();
                  const target = (client as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[name];
                  const call = target?.[method];
                  if (call === undefined) throw new TypeError(`The control plane has no ${name}.${method}.`);
                  return call.call(target, input);
                },
        },
      );
      apis.set(name, methods);
    }
    return methods;
  };
  const client = new Proxy({}, { get: (_target, name) => (typeof name === 'string' ? api(name) : undefined) }) as ControlPlaneClient;
  return {
    client,
    opened: () => opening !== undefined,
    async close() {
      closed = true;
      const current = opening;
      opening = undefined;
      if (current === undefined) return;
      const controlPlane = await current.catch(() => undefined);
      await controlPlane?.close();
    },
  };
}
