import OpenAI from 'openai';
import { afterEach, beforeAll, describe, expect, test } from 'vitest';
import { badBodies, goodBodies, realisticBody, refusedBeyondTheDocument } from './__fixtures__/request-bodies.js';
import {
  createRequestValidator,
  createResponsesRequestValidator,
  instancePathToParam,
  officialOpenapiDocument,
  reply,
  startTestModelServer,
  TestkitError,
  type RequestValidator,
  type TestModelServer,
} from './index.js';

const own = createResponsesRequestValidator();
const official = officialOpenapiDocument();
if (!official.present) console.warn(`request-validator.test.ts: the checks against the official OpenAPI document ${official.skipNote}`);
const servers: TestModelServer[] = [];

afterEach(async () => {
  await Promise.all(servers.splice(0).map((server) => server.close()));
});

async function start(options: Parameters<typeof startTestModelServer>[0] = {}) {
  const server = await startTestModelServer({ script: [reply.text('ok')], ...options });
  servers.push(server);
  return { server, client: new OpenAI({ apiKey: 'test', baseURL: server.baseURL, maxRetries: 2, timeout: 10_000 }) };
}

describe('the testkit description of the request (createResponsesRequestValidator)', () => {
  test.each(goodBodies)('accepts %s', (_name, body) => {
    expect(own.validate(body)).toBeUndefined();
  });

  test.each([...badBodies, ...refusedBeyondTheDocument])('refuses %s, naming the parameter as the API does', (_name, body, expected) => {
    expect(own.validate(body)?.error).toMatchObject({ type: 'invalid_request_error', ...expected });
  });

  test('words its errors as the API does', () => {
    expect(own.validate({ model: 'm', input: 'x', temprature: 0.2 })).toEqual({
      error: { message: "Unknown parameter: 'temprature'.", type: 'invalid_request_error', param: 'temprature', code: 'unknown_parameter' },
    });
    expect(own.validate({ input: 'x' })?.error.message).toMatch(/^Missing required parameter: 'model'\. \(testkit: /);
    expect(own.validate({ model: 'm', input: [{ type: 'function_call_output', call_id: 'c' }] })?.error.message).toMatch(/^Missing required parameter: 'input\[0\]\.output'\./);
  });

  test('turns JSON pointers into API params', () => {
    expect(instancePathToParam('/input/0/content/1', 'text')).toBe('input[0].content[1].text');
  });
});

describe('servers check every request against it, with no OpenAPI file', () => {
  test('a conforming streamed request gets its scripted reply', async () => {
    const { server } = await start();
    const response = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: JSON.stringify(realisticBody) });
    expect(response.status).toBe(200);
    expect(server.remaining).toBe(0);
  });

  test('a non-conforming body is a 400 BadRequestError from the SDK, not retried, no step used', async () => {
    const { server, client } = await start();
    const error = await client.responses
      .create({ model: 'test-model', input: [{ role: 'user', content: 42 as unknown as string }] })
      .catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(OpenAI.BadRequestError);
    expect(error).toMatchObject({ status: 400, param: 'input[0].content', code: 'invalid_type', type: 'invalid_request_error' });
    expect(server.requests).toHaveLength(1);
    expect(server.remaining).toBe(1);
  });

  test('a tool sent in the Chat Completions shape is refused before any step runs', async () => {
    const { server } = await start();
    const body = { model: 'm', input: 'x', tools: [{ type: 'function', function: { name: 'f', parameters: {} } }] };
    const response = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: JSON.stringify(body) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'tools[0].name', code: 'missing_required_parameter' } });
    expect(server.remaining).toBe(1);
  });
});

describe.skipIf(!official.present)(`the official OpenAPI document (${official.present ? official.path : official.skipNote})`, () => {
  let validator: RequestValidator;

  beforeAll(() => {
    validator = createRequestValidator(official.path);
  });

  test.each(goodBodies)('accepts %s, as the testkit description does', (_name, body) => {
    expect(validator.validate(body)).toBeUndefined();
  });

  test.each(badBodies)('refuses %s with the same param and code as the testkit description', (_name, body, expected) => {
    expect(validator.validate(body)?.error).toMatchObject({ type: 'invalid_request_error', ...expected });
  });

  test.each(refusedBeyondTheDocument)('lets %s by (only the testkit description refuses it)', (_name, body) => {
    expect(validator.validate(body)).toBeUndefined();
  });

  test('refuses a top-level parameter CreateResponse does not declare, as the API does', () => {
    expect(validator.validate({ model: 'm', input: 'x', temprature: 0.2 })).toEqual({
      error: { message: "Unknown parameter: 'temprature'.", type: 'invalid_request_error', param: 'temprature', code: 'unknown_parameter' },
    });
  });

  test('refuses a missing file with a TestkitError', () => {
    expect(() => createRequestValidator('/nonexistent/openapi.json')).toThrow(TestkitError);
  });

  test('openapiPath compiles a validator for one server, checked as well as the testkit description', async () => {
    const { server } = await start({ openapiPath: official.path });
    const response = await fetch(`${server.baseURL}/responses`, { method: 'POST', body: JSON.stringify({ model: 'm', input: 'x', top_p: 'high' }) });
    expect(response.status).toBe(400);
    expect(await response.json()).toMatchObject({ error: { param: 'top_p', message: expect.stringContaining('#/components/schemas/CreateResponse') } });
  });
});
