// Prints how long compiling the CreateResponse validator and validating one request take.
// Run after a build: `npx tsup && node bench/request-validator.mjs`.
import path from 'node:path';
import { createRequestValidator } from '../dist/index.js';

const openapiPath = path.resolve(import.meta.dirname, '../../../../shared/reference/openai-openapi.json');
const body = {
  model: 'test-model',
  instructions: 'You are a worker.',
  store: false,
  stream: true,
  tools: Array.from({ length: 20 }, (_, index) => ({
    type: 'function',
    name: `tool_${index}`,
    description: 'A tool.',
    parameters: { type: 'object', properties: { path: { type: 'string' } }, required: ['path'], additionalProperties: false },
    strict: true,
  })),
  input: [
    { role: 'user', content: 'Do it.' },
    { type: 'function_call', call_id: 'call_1', name: 'tool_1', arguments: '{"path":"a"}' },
    { type: 'function_call_output', call_id: 'call_1', output: 'done' },
  ],
};

const compileTimes = [];
let validator;
for (let run = 0; run < 3; run += 1) {
  validator = createRequestValidator(openapiPath);
  compileTimes.push(validator.compileMs);
}
const iterations = 2000;
const started = performance.now();
for (let run = 0; run < iterations; run += 1) {
  if (validator.validate(body) !== undefined) throw new Error('the benchmark body should conform');
}
const perValidation = (performance.now() - started) / iterations;
console.table({
  'read + compile CreateResponse (ms, best of 3)': Math.min(...compileTimes).toFixed(0),
  'read + compile CreateResponse (ms, worst of 3)': Math.max(...compileTimes).toFixed(0),
  'validate one 20-tool request (µs)': (perValidation * 1000).toFixed(1),
});
