// Prints how long compiling the request validators and validating one request take: the testkit's own
// description always, the official OpenAPI document as well when it is beside the checkout.
// Run after a build: `npx tsup && node bench/request-validator.mjs`.
import { createRequestValidator, createResponsesRequestValidator, officialOpenapiDocument } from '../dist/index.js';

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

function measure(label, create) {
  const compileTimes = [];
  let validator;
  for (let run = 0; run < 3; run += 1) {
    validator = create();
    compileTimes.push(validator.compileMs);
  }
  const iterations = 2000;
  const started = performance.now();
  for (let run = 0; run < iterations; run += 1) {
    if (validator.validate(body) !== undefined) throw new Error(`the benchmark body should conform (${label})`);
  }
  const perValidation = (performance.now() - started) / iterations;
  return {
    [`${label}: compile (ms, best of 3)`]: Math.min(...compileTimes).toFixed(0),
    [`${label}: compile (ms, worst of 3)`]: Math.max(...compileTimes).toFixed(0),
    [`${label}: validate one 20-tool request (µs)`]: (perValidation * 1000).toFixed(1),
  };
}

const figures = measure('testkit description', createResponsesRequestValidator);
const official = officialOpenapiDocument();
if (official.present) Object.assign(figures, measure('official OpenAPI document (read + compile)', () => createRequestValidator(official.path)));
else console.log(`official OpenAPI document: ${official.skipNote}`);
console.table(figures);
