import { RECORD_SCHEMAS, RPC_METHODS } from '@core/control-plane-client';
import { z } from 'zod';

const ERROR_SCHEMA = {
  type: 'object',
  required: ['error'],
  properties: {
    error: {
      type: 'object',
      required: ['kind', 'code', 'message'],
      properties: {
        kind: { enum: ['input', 'not_found', 'conflict', 'auth', 'limit', 'failure'] },
        code: { type: 'string', description: 'stable: input_invalid, job_not_found, lease_lost, unauthorized, agent_forbidden, body_too_large, rate_limited, internal_error, …' },
        message: { type: 'string' },
        field: { type: 'string' },
        resource: { type: 'string' },
        id: { type: 'string' },
        requestId: { type: 'string' },
      },
    },
  },
};

/**
 * The HTTP control plane described as OpenAPI 3.1 (served at `GET /v1/openapi.json`): one `POST /v1/<api>/<method>`
 * per entry of `RPC_METHODS`, its request body the JSON Schema of the call's zod input schema (as accepted, before
 * trimming), its answer `{ result }` with the JSON Schema of the call's output schema (the records under
 * `components.schemas`, by the names of `RECORD_SCHEMAS`), and the error shape with the statuses.
 */
export function controlPlaneOpenApi(): Record<string, unknown> {
  const records = z.registry<{ id: string }>();
  for (const [id, schema] of Object.entries(RECORD_SCHEMAS)) records.add(schema, { id });
  const components: Record<string, unknown> = {};
  /** The output schema as JSON Schema, its records moved to `components.schemas` and referred to there. */
  const outputSchema = (output: z.ZodType): unknown => {
    const generated = z.toJSONSchema(output, { metadata: records, io: 'output', unrepresentable: 'any' }) as Record<string, unknown>;
    const { $schema: _dialect, $defs, ...schema } = JSON.parse(JSON.stringify(generated).replaceAll('"#/$defs/', '"#/components/schemas/')) as Record<string, unknown>;
    Object.assign(components, $defs);
    return schema;
  };
  const paths: Record<string, unknown> = {
    '/v1/health': { get: { operationId: 'health', security: [], responses: { 200: { description: 'The server answers.' } } } },
    '/v1/changes': {
      get: {
        operationId: 'changes',
        summary: 'The changes of jobs, workflows, tasks, approvals, schedules and transcripts as server-sent events (worker token, or the agent\'s own token: its agent only)',
        parameters: [{ name: 'agentId', in: 'query', required: false, schema: { type: 'string' }, description: 'Only this agent\'s changes (an agent token: its own).' }],
        responses: {
          200: {
            description:
              'text/event-stream: `ready` once listening; `change` with { kind, id, agentId, workflowId | jobId | taskId } (read the record with the calls); `gap` when changes may have been missed (read again); `end` with { reason: reconnect | revoked | closing }; a keep-alive comment every 15 s.',
            content: { 'text/event-stream': { schema: { type: 'string' } } },
          },
          ...Object.fromEntries([400, 401, 403, 429].map((status) => [status, { $ref: '#/components/responses/Error' }])),
        },
      },
    },
  };
  for (const [name, method] of Object.entries(RPC_METHODS)) {
    const [api, call] = name.split('.') as [string, string];
    const { $schema: _dialect, ...schema } = z.toJSONSchema(method.input, { io: 'input', unrepresentable: 'any' }) as Record<string, unknown>;
    paths[`/v1/${api}/${call}`] = {
      post: {
        operationId: `${api}_${call}`,
        tags: [api],
        summary: `${name} (${method.scope === 'agent' ? 'worker token, or the agent\'s own token' : 'worker token'}${method.retrySafe ? '; safe to retry' : ''})`,
        requestBody: { required: true, content: { 'application/json': { schema } } },
        responses: {
          200: {
            description: 'The call\'s result.',
            content: { 'application/json': { schema: { type: 'object', required: ['result'], properties: { result: outputSchema(method.output) } } } },
          },
          ...Object.fromEntries(
            [400, 401, 403, 404, 409, 413, 429, 500].map((status) => [status, { $ref: '#/components/responses/Error' }]),
          ),
        },
      },
    };
  }
  return {
    openapi: '3.1.0',
    info: { title: 'Ankole control plane', version: '1', description: 'Every ControlPlaneClient call as JSON over HTTP (`ankole serve`).' },
    security: [{ bearer: [] }],
    paths,
    components: {
      schemas: components,
      securitySchemes: { bearer: { type: 'http', scheme: 'bearer', description: '`ankole tokens create --worker | --agent NAME`' } },
      responses: { Error: { description: 'A refused or failed call.', content: { 'application/json': { schema: ERROR_SCHEMA } } } },
    },
  };
}
