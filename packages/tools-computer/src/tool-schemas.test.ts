import { toolParameters, zodToJSONSchema } from '@core/runtime';
import { afterEach, beforeEach, expect, test } from 'vitest';
import { tempDir, toolNamed } from './__fixtures__/temp-home.js';
import { createComputerTools } from './create-computer-tools.js';

let first: Awaited<ReturnType<typeof tempDir>>;
let second: Awaited<ReturnType<typeof tempDir>>;

beforeEach(async () => {
  first = await tempDir();
  second = await tempDir();
});
afterEach(async () => {
  await first.dispose();
  await second.dispose();
});

test('every turn reuses the same schemas, so their JSON Schema conversion is memoised across turns', () => {
  for (const limits of [undefined, { maxCommandTimeoutMs: 30_000, commandTimeoutMs: 10_000, maxReadLines: 50 }]) {
    const turnOne = createComputerTools({ home: first.path, limits });
    const turnTwo = createComputerTools({ home: second.path, limits });
    expect(turnTwo.map((tool) => tool.name)).toEqual(turnOne.map((tool) => tool.name));
    for (const tool of turnOne) {
      const again = toolNamed(turnTwo, tool.name);
      expect(again.schema, tool.name).toBe(tool.schema);
      // The runtime's memo is per schema object: the second turn gets the very same converted object.
      expect(zodToJSONSchema(again.schema), tool.name).toBe(zodToJSONSchema(tool.schema));
      expect(toolParameters(again).parameters).toStrictEqual(toolParameters(tool).parameters);
    }
  }
});

test('limits still reach the model: the command ceiling as the schema maximum, the rest in the descriptions', () => {
  const tools = createComputerTools({ home: first.path, limits: { maxCommandTimeoutMs: 30_000, commandTimeoutMs: 10_000, maxReadLines: 50 } });
  const command = toolNamed(tools, 'command');
  expect(zodToJSONSchema(command.schema)).toMatchObject({ properties: { timeout_ms: { maximum: 30_000 } } });
  expect(command.description).toContain('timeout_ms 10000');
  expect(toolNamed(tools, 'read_file').description).toContain('limit defaults to 50 lines');
  // A different ceiling is a different schema; the default one is unchanged.
  const defaults = toolNamed(createComputerTools({ home: first.path }), 'command');
  expect(defaults.schema).not.toBe(command.schema);
  expect(zodToJSONSchema(defaults.schema)).toMatchObject({ properties: { timeout_ms: { maximum: 600_000 } } });
});
