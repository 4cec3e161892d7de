import { describe, expect, it } from 'vitest';
import { z } from 'zod';
import { agentToolMap, toolKey } from './agent-tool-map.js';
import { defineWorkerTool } from './define-worker-tool.js';
import { ToolSetError } from '../errors.js';

const tool = (name: string, namespace?: string) =>
  defineWorkerTool({
    name,
    description: `The ${name} tool.`,
    schema: z.object({}),
    describeActivity: () => name,
    execute: () => ({ content: name }),
    ...(namespace === undefined ? {} : { namespace }),
  });

describe('toolKey', () => {
  it('is namespace.name for namespaced tools and name otherwise', () => {
    expect(toolKey({ name: 'search' })).toBe('search');
    expect(toolKey({ name: 'search', namespace: 'github' })).toBe('github.search');
  });
});

describe('agentToolMap', () => {
  it('maps the name the model calls to the tool, in assembly order', () => {
    const search = tool('search');
    const githubSearch = tool('search', 'github');
    const map = agentToolMap([search, githubSearch]);
    expect([...map.keys()]).toStrictEqual(['search', 'github.search']);
    expect(map.get('github.search')).toBe(githubSearch);
    expect(map.get('search')).toBe(search);
  });

  it('refuses duplicates, listing each duplicated key once', () => {
    try {
      agentToolMap([tool('a'), tool('a'), tool('a'), tool('b', 'n'), tool('b', 'n'), tool('c')]);
      expect.unreachable();
    } catch (error) {
      expect(error).toBeInstanceOf(ToolSetError);
      expect((error as ToolSetError).toolNames).toStrictEqual(['a', 'n.b']);
      expect((error as ToolSetError).message).toContain('Duplicate tool names in the tool set: a, n.b');
    }
  });
});
