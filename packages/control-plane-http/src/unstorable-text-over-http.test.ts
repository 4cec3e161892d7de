import { RPC_METHODS, type RpcMethodName } from '@core/control-plane-client';
import type { ControlPlane } from '@core/control-plane';
import { controlPlanes } from '@core/control-plane/testing';
import { BAD, spoiled, unstorableTextFixtures as fixtures, validInputs } from '@core/control-plane-client/testing';
import { afterAll, afterEach, describe, expect, it } from 'vitest';
import { createAccessTokens } from './access-tokens.js';
import { serveControlPlane, type ControlPlaneServer } from './serve-control-plane.js';

/** These calls run many statements (hundreds of cases, or whole workflows): on a loaded machine PGlite needs time. */
const SLOW_MS = 240_000;

// The unstorable-text cases of the contract suite (@core/control-plane-client/testing) as raw HTTP requests (no client parses them first): a NUL or a
// lone surrogate (sent as the JSON escapes `\u0000`, `\ud83d`) in any string or object key of any call's body is
// answered 400 input_invalid naming where, on both drivers.
describe.each(['postgres', 'pglite'] as const)('text PostgreSQL cannot store, as raw HTTP requests on %s', (kind) => {
  const planes = controlPlanes(kind);
  let server: ControlPlaneServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
    await planes.cleanup();
  });
  afterAll(() => planes.close());

  async function serve(plane: ControlPlane): Promise<(name: RpcMethodName, body: unknown) => Promise<{ status: number; error?: { code: string; field?: string; message: string } }>> {
    const tokens = createAccessTokens({ driver: plane.driver, schema: plane.schema });
    const { token } = await tokens.create({ kind: 'worker', label: 'test' });
    server = await serveControlPlane({ client: plane.client, authenticate: (presented) => (presented === undefined ? undefined : tokens.verify(presented)), port: 0, ratePerSecond: 10_000, rateBurst: 10_000, log: () => {} });
    const url = server.url;
    return async (name, body) => {
      const response = await fetch(`${url}/v1/${name.replace('.', '/')}`, {
        method: 'POST',
        body: JSON.stringify(body),
        headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
      });
      const answer = (await response.json()) as { error?: { code: string; field?: string; message: string } };
      return { status: response.status, ...(answer.error === undefined ? {} : { error: answer.error }) };
    };
  }

  for (const [kindOfText, bad] of Object.entries(BAD)) {
    it(`answers a ${kindOfText} anywhere in any call's body with 400 input_invalid naming where`, async () => {
      const plane = await planes.open();
      const post = await serve(plane);
      const inputs = validInputs(await fixtures(plane));
      expect(Object.keys(inputs).sort()).toEqual(Object.keys(RPC_METHODS).sort());
      const statuses: Record<number, number> = {};
      const wrong: string[] = [];
      for (const name of Object.keys(inputs) as RpcMethodName[]) {
        for (const input of inputs[name]) {
          for (const spoilt of spoiled(input, bad)) {
            const answer = await post(name, spoilt.input);
            statuses[answer.status] = (statuses[answer.status] ?? 0) + 1;
            if (answer.status !== 400 || answer.error?.code !== 'input_invalid' || answer.error.field !== spoilt.path) wrong.push(`${name} ${spoilt.path}: ${answer.status} ${answer.error?.code}`);
          }
        }
      }
      console.log(`${kindOfText} as raw HTTP on ${kind}: ${Object.entries(statuses).map(([status, count]) => `${count}×${status}`).join(', ')}`);
      expect(wrong).toEqual([]);
    }, SLOW_MS);
  }
});
