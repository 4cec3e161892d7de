import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool } from '../tool/define-worker-tool.js';
import { validateToolArguments } from './validate-tool-arguments.js';
import type { ValidationResult } from './validate-tool-arguments.js';
import {
  execute,
  describeActivity,
  readTool,
  strictTool,
  itemsTool,
  mcpTool,
  permissive,
  expectOk,
  expectMessage,
  mulberry32,
} from '../__fixtures__/validation-tools.js';

describe('validateToolArguments: limits, never throws, never hangs', () => {
  it('refuses input over 1 MiB (UTF-8 bytes) before any work', () => {
    const padding = 'x'.repeat(1024 * 1024);
    expect(expectMessage(validateToolArguments(permissive, `{"a":"${padding}"}`))).toContain(
      `the arguments are ${1024 * 1024 + 8} bytes; the limit is 1048576 bytes (1 MiB)`,
    );
    const multibyte = `{"a":"${'é'.repeat(600 * 1024)}"}`; // 600 Ki characters, 1.2 MB
    expect(expectMessage(validateToolArguments(permissive, multibyte))).toContain('the limit is 1048576 bytes');
    const exact = `{"a":"${'x'.repeat(1024 * 1024 - 8)}"}`;
    expect(expectOk(validateToolArguments(permissive, exact)).repairs).toEqual([]);
  });

  it('refuses nesting deeper than 512, valid or broken, without overflowing the stack', () => {
    const nested = (depth: number) => `{"a":${'['.repeat(depth - 1)}${']'.repeat(depth - 1)}}`;
    expect(expectOk(validateToolArguments(permissive, nested(512))).repairs).toEqual([]);
    expect(expectMessage(validateToolArguments(permissive, nested(513)))).toContain('nested deeper than 512 levels');
    expect(expectMessage(validateToolArguments(permissive, `{"a":${'['.repeat(100_000)}`))).toContain('nested deeper than 512 levels');
    expect(expectMessage(validateToolArguments(permissive, `${'{a: ['.repeat(5000)}${']}'.repeat(5000)}`))).toContain('nested deeper than 512 levels');
    expect(expectMessage(validateToolArguments(permissive, `He said " here: {"a":${'['.repeat(100_000)}`))).toContain('nested deeper than 512 levels');
    const deepString = JSON.stringify({ a: `${'['.repeat(600)}${']'.repeat(600)}` });
    expect(validateToolArguments(permissive, deepString).ok).toBe(true);
    expect(expectMessage(validateToolArguments(permissive, JSON.stringify(`{"a":${'['.repeat(600)}${']'.repeat(600)}}`)))).toContain(
      'a JSON string holding an object, and that object is unreadable: the arguments are nested deeper than 512 levels',
    );
  });

  it('turns an exception from the tool schema into a message', () => {
    const tool = defineWorkerTool({
      name: 'throws',
      description: 'Throws.',
      schema: z.object({
        a: z.string().refine(() => {
          throw new Error('refinement exploded');
        }),
      }),
      describeActivity,
      execute,
    });
    const result = validateToolArguments(tool, '{"a":"x"}');
    expect(result.ok).toBe(false);
    expect(!result.ok && result.message).toContain('refinement exploded');
    expect(validateToolArguments(permissive, undefined as unknown as string).ok).toBe(false);
  });

  it('never throws even when the tool schema throws something that cannot be turned into a string', () => {
    const thrownValues: unknown[] = [
      Object.create(null),
      {
        toString: () => {
          throw new Error('no string');
        },
      },
    ];
    for (const thrown of thrownValues) {
      const tool = defineWorkerTool({
        name: 'throws_odd',
        description: 'Throws an odd value.',
        schema: z.object({ a: z.string() }).refine(() => {
          throw thrown;
        }),
        describeActivity,
        execute,
      });
      const result = validateToolArguments(tool, '{"a":"x"}');
      expect(expectMessage(result)).toContain('Invalid arguments for tool "throws_odd": the arguments could not be validated');
    }
  });

  it('does not hang on a catastrophic pattern of an external JSON Schema (ReDoS)', () => {
    const tool = defineWorkerTool({
      name: 'mcp_search',
      description: 'A tool whose schema came from an MCP server.',
      jsonSchema: { type: 'object', properties: { tags: { type: 'array', items: { type: 'string', pattern: '^(a+)+$' } } } },
      describeActivity,
      execute,
    });
    const tags = Array.from({ length: 200 }, () => `${'a'.repeat(50)}!`);
    expect(expectMessage(validateToolArguments(tool, JSON.stringify({ tags })))).toContain('$.tags[0]: must match pattern "^(a+)+$"');
    expect(expectOk(validateToolArguments(tool, JSON.stringify({ tags: [] }))).params).toEqual({ tags: [] });
  });

  // 5,000 validations take seconds on a loaded machine: a wider timeout than the default (no timing asserted).
  it('never throws on random garbage and mutated JSON (fuzz, fixed seed)', () => {
    const random = mulberry32(7);
    const alphabet = '{}[]{}[]"""\'\',,::::  \n\\`tfnTFNul0123456789.-+eE_abcxyz/*#é€😀\u0000\u2028';
    const seeds = ['{"path":"a.txt","limit":10}', '{"items":[{"name":"a","count":1}]}', "```json\n{'a': True}\n```", '{"a":"b\\"c","d":[1,2,{"e":null}]}'];
    for (let round = 0; round < 1000; round++) {
      let text: string;
      if (random() < 0.5) {
        const length = Math.floor(random() * 60);
        text = Array.from({ length }, () => alphabet[Math.floor(random() * alphabet.length)]).join('');
      } else {
        const chars = [...(seeds[Math.floor(random() * seeds.length)] as string)];
        for (let edits = 1 + Math.floor(random() * 4); edits > 0; edits--) {
          const at = Math.floor(random() * (chars.length + 1));
          const op = random();
          if (op < 0.33) chars.splice(at, 1);
          else if (op < 0.66) chars.splice(at, 0, alphabet[Math.floor(random() * alphabet.length)] as string);
          else chars.length = at;
        }
        text = chars.join('');
      }
      for (const tool of [permissive, readTool, itemsTool, strictTool, mcpTool]) {
        let result: ValidationResult | undefined;
        expect(() => {
          result = validateToolArguments(tool, text);
        }, JSON.stringify(text)).not.toThrow();
        if (result?.ok === true) expect(typeof result.params === 'object' && result.params !== null && !Array.isArray(result.params)).toBe(true);
        else expect(result?.message).toContain('Fix the arguments and call the tool again.');
      }
    }
  }, 120_000);

  it('stays linear on adversarial input near the size limit (finishes; no timing asserted)', () => {
    const big = 1000 * 1000;
    const inputs = [
      `{"a":"${'\\"'.repeat(big / 4)}`,
      `{${'"a":1,'.repeat(big / 7)}`,
      `${'{"a":'.repeat(500)}${'"x",'.repeat(big / 8)}`,
      `prose ${'{'.repeat(400)}${' }'.repeat(big / 4)}`,
      `'${"a' 'b".repeat(big / 8)}`,
      `{"a": [${'1 '.repeat(big / 4)}`,
      `${'```json\n{"a":1}\n```'.repeat(big / 20)}`,
    ];
    for (const input of inputs) expect(typeof validateToolArguments(permissive, input).ok).toBe('boolean');
    // Over 64 KiB, malformed input gets the linear rungs only (jsonrepair is quadratic on some input).
    expect(expectMessage(validateToolArguments(permissive, `{"a": "x" + "${'y'.repeat(70_000)}"}`))).toContain(
      'syntax repair is only tried on arguments up to 64 KiB',
    );
    expect(expectOk(validateToolArguments(permissive, `{'a': '${'x'.repeat(70_000)}'}`)).params).toEqual({ a: 'x'.repeat(70_000) });
    // The linear normalising pass has no such limit: missing commas in an 80 KB array are put back.
    expect(expectOk(validateToolArguments(permissive, `{"a": [${'1 '.repeat(40_000)}]}`)).params).toEqual({ a: Array.from({ length: 40_000 }, () => 1) });
    expect(expectOk(validateToolArguments(permissive, `{"a": "${'x'.repeat(100_000)}`)).params).toEqual({});
  });
});
