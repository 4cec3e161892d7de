// The workload every framework runs: the same tool shapes, the same argument strings, the same call ids.
import { z } from 'zod';

/** The fields a tool's arguments can carry; each tool uses 5 or 6 of them. */
export interface ToolArguments {
  path: string;
  limit: number;
  mode: 'read' | 'write' | 'append';
  recursive: boolean;
  tags: string[];
  note?: string;
}

/** One tool of the workload, described once and built by each adapter in its framework's own terms. */
export interface ToolSpec {
  name: string;
  description: string;
  /** Whether the tool has the sixth field, `note`. */
  hasNote: boolean;
  /** Zod schema (ours, ai, @openai/agents). All fields required, so it is also valid in OpenAI strict mode. */
  schema: z.ZodObject;
}

/** One function call of a scripted response. */
export interface CallSpec {
  callId: string;
  name: string;
  arguments: string;
}

const MODES = ['read', 'write', 'append'] as const;

function zodSchemaFor(hasNote: boolean): z.ZodObject {
  const base = {
    path: z.string().min(1).describe('A path relative to the home folder.'),
    limit: z.number().int().min(1).max(1000).describe('How many lines at most.'),
    mode: z.enum(MODES).describe('What to do with the file.'),
    recursive: z.boolean().describe('Whether to walk sub-folders.'),
    tags: z.array(z.string()).max(10).describe('Labels to attach.'),
  };
  return hasNote ? z.object({ ...base, note: z.string().describe('A note for the log.') }) : z.object(base);
}

/** `count` tools, named `tool_0` … ; even-numbered tools have 6 fields, odd ones 5. */
export function makeToolSpecs(count: number): ToolSpec[] {
  return Array.from({ length: count }, (_, index) => ({
    name: `tool_${index}`,
    description: `Tool number ${index}: reads or writes a file in the agent home and reports what it did.`,
    hasNote: index % 2 === 0,
    schema: zodSchemaFor(index % 2 === 0),
  }));
}

/** The 10 tools of the per-call workload. */
export const TOOL_SPECS: ToolSpec[] = makeToolSpecs(10);

/** 100 tools for the collection measurement. */
export const MANY_TOOL_SPECS: ToolSpec[] = makeToolSpecs(100);

function argumentsFor(spec: ToolSpec, variant: number): string {
  const value: ToolArguments = {
    path: `projects/ankole-runtime/notes/2026-12-0${1 + (variant % 9)}/weekly-meeting-summary-${variant}.md`,
    limit: 100 + variant * 7,
    mode: MODES[variant % 3] ?? 'read',
    recursive: variant % 2 === 0,
    tags: ['runtime', 'benchmark', `batch-${variant % 5}`].slice(0, 1 + (variant % 3)),
  };
  if (spec.hasNote) value.note = `Checked by the nightly job, variant ${variant}.`;
  return JSON.stringify(value);
}

/** The call ids and argument strings of a response carrying `count` calls (tools used round robin). */
export function makeCalls(count: number): CallSpec[] {
  return Array.from({ length: count }, (_, index) => {
    const spec = TOOL_SPECS[index % TOOL_SPECS.length] as ToolSpec;
    return { callId: `call_${index}`, name: spec.name, arguments: argumentsFor(spec, index % 17) };
  });
}

/** The response sizes measured. */
export const CALL_COUNTS = [1, 10, 50] as const;

/** The argument string of the validation measurement: valid for tool_0, exactly 207 bytes. */
export const VALIDATION_ARGUMENTS = JSON.stringify({
  path: 'projects/ankole/notes/2026-12-01/meeting-summary.md',
  limit: 250,
  mode: 'write',
  recursive: true,
  tags: ['runtime', 'benchmark', 'nightly'],
  note: 'Agreed: ship the runtime on Friday; owners Ana+Bo.',
});

/** What every tool's execute returns: trivial work on its validated params. */
export function toolOutput(params: ToolArguments): string {
  return `ok:${params.mode}:${params.tags.length}`;
}

/** The final answer of every turn. */
export const FINAL_TEXT = 'All done.';
