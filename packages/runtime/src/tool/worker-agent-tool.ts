import type { z } from 'zod';
import type { JSONObject } from '../json.js';

/** Whether a tool may run together with other `parallel` tools of the same model response. */
export type ExecutionMode = 'parallel' | 'sequential';

/** A text part of a tool's output. */
export interface ToolTextPart {
  type: 'input_text';
  text: string;
}

/** An image part of a tool's output (`image_url` is an https URL or a `data:` URL). */
export interface ToolImagePart {
  type: 'input_image';
  image_url: string;
  detail?: 'low' | 'high' | 'auto';
}

/** One part of a tool's output. */
export type ToolContentPart = ToolTextPart | ToolImagePart;

/** What the model sees of a tool's result: becomes the `function_call_output`'s `output`. */
export type ToolContent = string | ToolContentPart[];

/**
 * A response-presentation event: something a UI shows (a checklist, a link, a file), never the model.
 * `kind` says what it is; the other fields depend on the kind.
 */
export interface PresentationEvent {
  kind: string;
  [field: string]: unknown;
}

/** What a tool's `execute` returns. */
export interface AgentToolResult<TDetails = unknown> {
  /** The content the model sees. */
  content: ToolContent;
  /** Structured data for logs and UIs; never sent to the model. */
  details?: TDetails;
  /** Events for the user's UI (a checklist, links, files). */
  presentation?: PresentationEvent[];
  /** Marks the actor event (the activity) as complete for the UI. */
  completeActorEvent?: boolean;
  /** Ends the turn once every output of this model response is recorded. */
  terminateTurn?: boolean;
  /** The result describes a failure (the activity is reported as an error; the model still sees `content`). */
  isError?: boolean;
}

/** What `execute` receives besides its params. */
export interface ToolExecutionContext {
  /** Aborted when the turn is aborted or the tool's timeout passes. */
  signal: AbortSignal;
  /** The model's `call_id` for this call. */
  callId: string;
  /** The tool's name (without namespace). */
  toolName: string;
  /** The tool's namespace, if any. */
  namespace?: string;
}

interface WorkerToolFields {
  /** The name the model sees and calls: `^[a-zA-Z0-9_-]{1,64}$`. */
  name: string;
  /** What the tool does; the model reads it to decide whether to call. */
  description: string;
  /** Whether the provider applies the function schema in strict mode (default `false`). */
  strict?: boolean;
  /** Groups related tools under one provider namespace. */
  namespace?: string;
  /** The namespace's description (the first member's wins). */
  namespaceDescription?: string;
  /** Keep the schema behind Tool Search until the model selects it. */
  deferLoading?: boolean;
  /** `parallel` tools of one response run concurrently; `sequential` ones alone (default `sequential`). */
  executionMode?: ExecutionMode;
  /** The tool only reads (default `false`). */
  isReadOnly?: boolean;
  /** The tool can destroy data or have effects that are hard to undo (default `false`). */
  isDestructive?: boolean;
  /**
   * Whether a call may start while the model's response is still streaming (eager dispatch in `runAgentLoop`), before
   * the response is known to be complete. Default: `isReadOnly`. `true` on a tool that is not read-only opts it in: its
   * calls may then run although the response ends `incomplete`, `failed` or aborted (they are aborted then, but what
   * they already did stays done). `false` keeps a read-only tool's calls until the response is complete.
   */
  eagerStart?: boolean;
  /** This tool's timeout in ms; overrides the dispatch default. */
  timeoutMs?: number;
}

/** Whether a call needs a person's approval: a constant, or decided from the call's validated params. */
export type NeedsApproval<TParams = any> = boolean | ((params: TParams) => boolean);

/** The definition of a tool whose parameters are a Zod schema. */
export interface ZodWorkerToolDefinition<TSchema extends z.ZodType, TDetails = unknown> extends WorkerToolFields {
  /** Input parameters, validated before `execute` runs. */
  schema: TSchema;
  jsonSchema?: undefined;
  /** A short label for progress ("Reading notes.md"). */
  describeActivity: (params: z.output<TSchema>) => string;
  /** A summary label once the tool finished ("Read notes.md (120 lines)"). */
  describeCompletedActivity?: (params: z.output<TSchema>, result: AgentToolResult<TDetails>) => string;
  /**
   * Whether a call needs approval before it runs (asked of the loop's `approvalPolicy`). Unset: destructive tools
   * need it, read-only ones never do.
   */
  needsApproval?: NeedsApproval<z.output<TSchema>>;
  /** Runs the tool on validated params. */
  execute: (params: z.output<TSchema>, context: ToolExecutionContext) => Promise<AgentToolResult<TDetails>> | AgentToolResult<TDetails>;
}

/** The definition of a tool whose parameters are a live external JSON Schema (an MCP server's, say). */
export interface JsonSchemaWorkerToolDefinition<TDetails = unknown> extends WorkerToolFields {
  /** Optional extra Zod check run after the JSON Schema validation (default: any object). */
  schema?: z.ZodType<Record<string, unknown>>;
  /** Sent to the model unchanged; arguments are validated against it. Its root must be an object schema. */
  jsonSchema: JSONObject;
  describeActivity: (params: Record<string, unknown>) => string;
  describeCompletedActivity?: (params: Record<string, unknown>, result: AgentToolResult<TDetails>) => string;
  /** Whether a call needs approval (see `ZodWorkerToolDefinition.needsApproval`). */
  needsApproval?: NeedsApproval<Record<string, unknown>>;
  execute: (params: Record<string, unknown>, context: ToolExecutionContext) => Promise<AgentToolResult<TDetails>> | AgentToolResult<TDetails>;
}

/** The tool object the runtime works with: every field of the contract, defaults filled in. */
export interface WorkerAgentTool<TParams = any, TDetails = unknown> {
  readonly name: string;
  readonly description: string;
  readonly schema: z.ZodType<TParams>;
  readonly jsonSchema: JSONObject | undefined;
  readonly strict: boolean;
  readonly namespace: string | undefined;
  readonly namespaceDescription: string | undefined;
  readonly deferLoading: boolean;
  readonly executionMode: ExecutionMode;
  readonly isReadOnly: boolean;
  readonly isDestructive: boolean;
  /** Whether a call may start before the response is complete (see `eagerStart`; unset: `isReadOnly`). */
  readonly eagerStart?: boolean;
  readonly timeoutMs: number | undefined;
  /** Whether a call needs approval (default: `isDestructive && !isReadOnly`). */
  readonly needsApproval: NeedsApproval<TParams>;
  readonly describeActivity: (params: TParams) => string;
  readonly describeCompletedActivity: ((params: TParams, result: AgentToolResult<TDetails>) => string) | undefined;
  readonly execute: (params: TParams, context: ToolExecutionContext) => Promise<AgentToolResult<TDetails>> | AgentToolResult<TDetails>;
}

/** Any tool, whatever its params. */
export type AnyWorkerAgentTool = WorkerAgentTool<any, any>;
