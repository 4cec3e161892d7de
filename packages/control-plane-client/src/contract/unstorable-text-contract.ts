import { describe, expect, it } from 'vitest';
import { ControlPlaneInputError, errorToWire, RPC_METHODS, type RpcMethodName } from '../index.js';
import { BAD, fixtures, spoiled, validInputs } from './unstorable-text-cases.js';
import type { ContractPlane, ContractPlanes } from './contract-plane.js';

/** These calls run many statements (hundreds of cases, or whole workflows): on a loaded machine PGlite needs time. */
const SLOW_MS = 240_000;

/** Calls `name` on the client with `input` (its `<api>.<method>`). */
function call(plane: ContractPlane, name: RpcMethodName, input: unknown): Promise<unknown> {
  const [api, method] = name.split('.') as [string, string];
  const target = (plane.client as unknown as Record<string, Record<string, (input: unknown) => Promise<unknown>>>)[api]!;
  return target[method]!(input);
}

/** Text PostgreSQL cannot store (a NUL, a lone surrogate) in any string or key of any call's input: refused, saying where. */
export function describeUnstorableInputContract(planes: ContractPlanes): void {
  describe('text PostgreSQL cannot store, in inputs', () => {
    it('has valid inputs for every call, each accepted as it is', async () => {
      const plane = await planes.open();
      const inputs = validInputs(await fixtures(plane));
      expect(Object.keys(inputs).sort()).toEqual(Object.keys(RPC_METHODS).sort());
      // Spoiled inputs are refused for their text alone: the unspoiled ones are accepted (in this order: claims first).
      for (const name of Object.keys(inputs) as RpcMethodName[]) {
        for (const input of inputs[name]) {
          const outcome = await call(plane, name, input).then(
            () => 'ok',
            (error: unknown) => (error instanceof ControlPlaneInputError ? `${name}: ${error.message}` : 'ok'),
          );
          expect(outcome).toBe('ok');
        }
      }
    }, SLOW_MS);

    for (const [kindOfText, bad] of Object.entries(BAD)) {
      it(`refuses a ${kindOfText} in any string or object key of any call's input with 400 input_invalid naming where`, async () => {
        const plane = await planes.open();
        const inputs = validInputs(await fixtures(plane));
        const outcomes: Record<string, number> = {};
        const wrong: string[] = [];
        let cases = 0;
        for (const name of Object.keys(inputs) as RpcMethodName[]) {
          for (const input of inputs[name]) {
            for (const spoilt of spoiled(input, bad)) {
              cases += 1;
              const error = await call(plane, name, spoilt.input).then(
                () => undefined,
                (problem: unknown) => problem,
              );
              // Tallied as the HTTP control plane would answer: 200, or the error's status (500 for an untyped one).
              const outcome = error === undefined ? '200' : `${errorToWire(error).status}`;
              outcomes[outcome] = (outcomes[outcome] ?? 0) + 1;
              if (!(error instanceof ControlPlaneInputError && error.code === 'input_invalid' && error.field === spoilt.path && error.message.includes(`Invalid input to ${name}: ${spoilt.path}: `))) {
                wrong.push(`${name} ${spoilt.path}: ${outcome}`);
              }
            }
          }
        }
        const tally = Object.entries(outcomes).map(([status, count]) => `${count}×${status}`).join(', ');
        console.log(`${kindOfText}: ${cases} cases over ${Object.keys(inputs).length} calls → ${tally}`);
        expect(wrong).toEqual([]);
        expect(cases).toBeGreaterThan(200);
      }, SLOW_MS);
    }
  });
}

/** Text PostgreSQL cannot store, made by a workflow script (in its result or a task it asks for): the workflow fails, saying where. */
export function describeUnstorableScriptTextContract(planes: ContractPlanes): void {
  describe('text PostgreSQL cannot store, made by a workflow script', () => {
    const runToEnd = async (plane: ContractPlane, script: string) => {
      const started = await plane.client.workflows.start({ agentId: 'a', title: 'Odd text', script });
      while ((await plane.client.advances.runNext({ workerId: 'w' })) !== null);
      return plane.client.workflows.get({ agentId: 'a', workflowId: started.id });
    };

    it('fails a workflow whose result holds such text, saying where, and still stores its log', async () => {
      const plane = await planes.open();
      const ended = await runToEnd(plane, "log('odd ' + String.fromCharCode(0xdc00) + ' text', String.fromCharCode(0)); return { items: ['fine', 'bad' + String.fromCharCode(0xd83d)] };");
      expect(ended).toMatchObject({
        status: 'failed',
        result: null,
        error: expect.stringContaining("The workflow's result cannot be stored: at result.items[1], the text contains a lone surrogate (U+D83D") as unknown,
      });
      expect(ended.log).toHaveLength(1);
    }, SLOW_MS);

    it('fails a workflow that asks for a task with such text instead of storing it', async () => {
      const plane = await planes.open();
      const schema = JSON.stringify({ type: 'object', additionalProperties: false, required: ['text'], properties: { text: { type: 'string' } } });
      const ended = await runToEnd(plane, `return await task({ title: 'T', prompt: 'Say' + String.fromCharCode(0), result: ${schema} });`);
      expect(ended).toMatchObject({ status: 'failed', tasks: [], error: expect.stringContaining("task() call number 1 cannot be stored: at its prompt, the text contains a NUL character (U+0000)") as unknown });
    }, SLOW_MS);
  });
}
