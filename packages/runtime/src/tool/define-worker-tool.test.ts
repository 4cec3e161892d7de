import { describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { defineWorkerTool, TOOL_NAME_PATTERN } from './define-worker-tool.js';
import { ToolDefinitionError } from '../errors.js';
import type { AgentToolResult, ToolExecutionContext, WorkerAgentTool } from './worker-agent-tool.js';

const context = (): ToolExecutionContext => ({ signal: new AbortController().signal, callId: 'c1', toolName: 'count' });

function definitionError(run: () => unknown): ToolDefinitionError {
  try {
    run();
  } catch (error) {
    expect(error).toBeInstanceOf(ToolDefinitionError);
    return error as ToolDefinitionError;
  }
  throw new Error('expected a ToolDefinitionError');
}

const valid = {
  name: 'count',
  description: 'Counts.',
  schema: z.object({ n: z.number() }),
  describeActivity: () => 'counting',
  execute: () => ({ content: 'ok' }),
};

describe('defineWorkerTool', () => {
  it('fills the defaults and keeps every field of the contract', () => {
    const tool = defineWorkerTool(valid);
    expect(tool).toMatchObject({
      name: 'count',
      description: 'Counts.',
      schema: valid.schema,
      jsonSchema: undefined,
      strict: false,
      namespace: undefined,
      namespaceDescription: undefined,
      deferLoading: false,
      executionMode: 'sequential',
      isReadOnly: false,
      isDestructive: false,
      timeoutMs: undefined,
      describeCompletedActivity: undefined,
    });
    expect(Object.isFrozen(tool)).toBe(true);
  });

  it('keeps the fields it is given', () => {
    const describeCompletedActivity = () => 'done';
    const tool = defineWorkerTool({
      ...valid,
      strict: true,
      namespace: 'math',
      namespaceDescription: 'Arithmetic.',
      deferLoading: true,
      executionMode: 'parallel',
      isReadOnly: true,
      isDestructive: true,
      timeoutMs: 500,
      describeCompletedActivity,
    });
    expect(tool).toMatchObject({
      strict: true,
      namespace: 'math',
      namespaceDescription: 'Arithmetic.',
      deferLoading: true,
      executionMode: 'parallel',
      isReadOnly: true,
      isDestructive: true,
      timeoutMs: 500,
    });
    expect(tool.describeCompletedActivity).toBe(describeCompletedActivity);
  });

  it('passes Zod output (after transforms and defaults) to execute at the type level and at run time', async () => {
    const schema = z.object({ size: z.string().transform((text) => Number(text)), mode: z.enum(['a', 'b']).default('a') });
    const tool = defineWorkerTool({
      name: 'sized',
      description: 'Sized.',
      schema,
      describeActivity: (params) => {
        expectTypeOf(params).toEqualTypeOf<{ size: number; mode: 'a' | 'b' }>();
        return `size ${params.size}`;
      },
      describeCompletedActivity: (params, result) => {
        expectTypeOf(params).toEqualTypeOf<{ size: number; mode: 'a' | 'b' }>();
        expectTypeOf(result.content).toEqualTypeOf<AgentToolResult['content']>();
        return `sized ${params.mode}`;
      },
      execute: (params, toolContext) => {
        expectTypeOf(params).toEqualTypeOf<{ size: number; mode: 'a' | 'b' }>();
        expectTypeOf(toolContext.signal).toEqualTypeOf<AbortSignal>();
        return { content: String(params.size * 2), details: { doubled: params.size * 2 } };
      },
    });
    expectTypeOf(tool).toEqualTypeOf<WorkerAgentTool<{ size: number; mode: 'a' | 'b' }, { doubled: number }>>();
    const params = schema.parse({ size: '21' });
    expect(await tool.execute(params, context())).toStrictEqual({ content: '42', details: { doubled: 42 } });
    expect(tool.describeActivity(params)).toBe('size 21');
  });

  it('types jsonSchema tools with Record<string, unknown> params', () => {
    const tool = defineWorkerTool({
      name: 'mcp_echo',
      description: 'Echo.',
      jsonSchema: { type: 'object', properties: { text: { type: 'string' } }, required: ['text'] },
      describeActivity: (params) => {
        expectTypeOf(params).toEqualTypeOf<Record<string, unknown>>();
        return 'echo';
      },
      execute: (params) => ({ content: String(params['text']) }),
    });
    expectTypeOf(tool).toEqualTypeOf<WorkerAgentTool<Record<string, unknown>, unknown>>();
    expect(tool.schema.parse({ text: 'x', extra: 1 })).toStrictEqual({ text: 'x', extra: 1 });
  });

  it.each(['', 'has space', 'dot.name', 'x'.repeat(65), 'ünicode'])('refuses the name %j', (name) => {
    const error = definitionError(() => defineWorkerTool({ ...valid, name }));
    expect(error.code).toBe('tool_name_invalid');
    expect(error.message).toContain(String(TOOL_NAME_PATTERN));
  });

  it('refuses an invalid namespace', () => {
    expect(definitionError(() => defineWorkerTool({ ...valid, namespace: 'a.b' })).message).toContain('namespace "a.b"');
  });

  it('refuses an empty description, a bad execution mode, a bad timeout and missing functions', () => {
    expect(definitionError(() => defineWorkerTool({ ...valid, description: ' ' })).message).toContain('description');
    expect(definitionError(() => defineWorkerTool({ ...valid, executionMode: 'eventually' as never })).message).toContain('executionMode');
    expect(definitionError(() => defineWorkerTool({ ...valid, timeoutMs: 0 })).message).toContain('timeoutMs');
    expect(definitionError(() => defineWorkerTool({ ...valid, execute: undefined as never })).message).toContain('execute');
    expect(definitionError(() => defineWorkerTool({ ...valid, describeActivity: 'x' as never })).message).toContain('describeActivity');
  });

  it('refuses a definition with neither schema nor jsonSchema, or a schema that is not Zod', () => {
    const { schema: _schema, ...rest } = valid;
    expect(definitionError(() => defineWorkerTool(rest as never)).message).toContain('either schema (Zod) or jsonSchema');
    expect(definitionError(() => defineWorkerTool({ ...valid, schema: { type: 'object' } as never })).message).toContain('schema must be a Zod schema');
  });

  it('refuses a strict schema strict mode cannot express when the tool is defined, naming tool and path', () => {
    const error = definitionError(() =>
      defineWorkerTool({ ...valid, name: 'tagger', strict: true, schema: z.object({ tags: z.array(z.object({ meta: z.unknown() })) }) }),
    );
    expect(error.message).toMatch(/^Tool "tagger" at \$\.properties\.tags\.items\.properties\.meta: /);
    expect(error).toMatchObject({ toolName: 'tagger', path: '$.properties.tags.items.properties.meta', code: 'tool_schema_not_strict' });
  });
});
