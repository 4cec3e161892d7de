/**
 * The `workflow` tool's description: what a workflow is and the script API, written for the model. The engine's
 * rules it teaches (closed result schemas, deterministic replay, no host access) are enforced by the control plane;
 * this text only has to let a model write a script that passes them the first time.
 */
export const WORKFLOW_SCRIPT_GUIDE = [
  'Start a workflow: a JavaScript script that orchestrates sub-agent tasks and runs durably in the background while you go on.',
  'Use it for work that splits into independent pieces (research several topics, then combine). Returns the workflow id; check it with show_workflow.',
  '',
  'The script is the body of an async function: top-level `await` and `return` work. In scope:',
  '- `input`: the JSON value you pass as `input`.',
  '- `task({ title, prompt, result })`: runs a sub-agent task and returns a promise of its result object. The sub-agent starts fresh',
  '  (it sees only `prompt`, so put everything it needs there), may use web tools, and answers by submitting a value matching `result`.',
  '  `result` is a JSON Schema that must be closed (OpenAI strict mode): an object root, `additionalProperties: false` on every object,',
  '  every property listed in `required`, optional values as a type union with "null" (e.g. `type: ["string", "null"]`),',
  '  no `oneOf` / `allOf` / `not` / `patternProperties`; a `pattern` without backreferences or lookaround (it is checked in linear time).',
  '  A schema that is not closed makes that task() call throw, naming the path.',
  '  The promise rejects (catch it with try/catch) when the task fails or is cancelled.',
  '- `log(...values)`: records a progress line (shown by show_workflow).',
  '- `Promise.all([...])` runs tasks in parallel: `await Promise.all(items.map((item) => task({ ... })))`.',
  '- The value you `return` (JSON) is the workflow\'s result; an uncaught error fails the workflow with its message.',
  'The script runs in a sandbox: no require/import, no process, file system, network or timers; dates are in UTC. Each run may',
  'use 1 s of CPU time and 32 MiB of memory, and a workflow at most 1000 tasks (the defaults; past a limit the workflow fails). It is re-run from the start',
  'whenever tasks finish (finished tasks return their stored results at once), so keep it deterministic: the same tasks,',
  'in the same order, for the same input and results. Do the real work in tasks, not in the script.',
  '',
  'Example:',
  'const notes = await Promise.all(input.topics.map((topic) => task({',
  '  title: `Research ${topic}`,',
  '  prompt: `Find the three most cited facts about ${topic}.`,',
  "  result: { type: 'object', additionalProperties: false, required: ['facts'],",
  "            properties: { facts: { type: 'array', items: { type: 'string' } } } },",
  '})));',
  'log(`collected ${notes.length} notes`);',
  'return { notes };',
].join('\n');
