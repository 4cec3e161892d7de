// Cost per turn of the computer tools' parameter schemas: each turn builds the tools again
// (createComputerTools) and the runtime converts each tool's Zod schema to JSON Schema (toolParameters).
// With the schemas built once at module level the conversion is memoised across turns; this prints the
// cost per turn and per tool. Runs the BUILT package (run `npx tsup` first): `node bench/schemas.mjs`.
import { mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { toolParameters } from '@core/runtime';
import { createComputerTools } from '@core/tools-computer';

const turns = process.argv.includes('--quick') ? 200 : 2000;
const home = mkdtempSync(path.join(os.tmpdir(), 'ankole-bench-schemas-'));
try {
  const turn = () => {
    const tools = createComputerTools({ home });
    for (const tool of tools) toolParameters(tool);
    return tools.length;
  };
  const count = turn();
  const started = process.hrtime.bigint();
  for (let index = 0; index < turns; index += 1) turn();
  const perTurn = Number(process.hrtime.bigint() - started) / 1e3 / turns;
  const targetUs = 500;
  console.log(`createComputerTools + toolParameters of its ${count} tools: ${perTurn.toFixed(1)} µs per turn (${(perTurn / count).toFixed(1)} µs per tool); target ${targetUs} µs per turn, ratio ${(perTurn / targetUs).toFixed(2)}`);
} finally {
  rmSync(home, { recursive: true, force: true });
}
