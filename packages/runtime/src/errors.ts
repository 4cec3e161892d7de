/** Whether a failure is the caller's mistake (`usage`) or something that went wrong at run time (`runtime`). */
export type AnkoleErrorKind = 'usage' | 'runtime';

/** Options shared by every Ankole error. */
export interface AnkoleErrorOptions {
  cause?: unknown;
}

/**
 * Base class of every error the runtime throws. `code` is stable and safe to branch on;
 * `kind` tells a caller's mistake from a runtime failure.
 */
export class AnkoleError extends Error {
  readonly code: string;
  readonly kind: AnkoleErrorKind;

  constructor(code: string, kind: AnkoleErrorKind, message: string, options: AnkoleErrorOptions = {}) {
    super(message, options.cause === undefined ? undefined : { cause: options.cause });
    this.name = new.target.name;
    this.code = code;
    this.kind = kind;
  }
}

/** A mistake in how the runtime was used: a bad tool definition, a bad tool set, bad options. */
export class UsageError extends AnkoleError {
  constructor(code: string, message: string, options: AnkoleErrorOptions = {}) {
    super(code, 'usage', message, options);
  }
}

/** A failure while running: the model endpoint, a tool, a timeout. */
export class RuntimeFailure extends AnkoleError {
  constructor(code: string, message: string, options: AnkoleErrorOptions = {}) {
    super(code, 'runtime', message, options);
  }
}

/** A tool definition that cannot be used, naming the tool and, for schema problems, the JSON path. */
export class ToolDefinitionError extends UsageError {
  readonly toolName: string;
  readonly path: string | undefined;

  constructor(toolName: string, message: string, options: AnkoleErrorOptions & { path?: string; code?: string } = {}) {
    const where = options.path === undefined ? '' : ` at ${options.path}`;
    super(options.code ?? 'tool_definition_invalid', `Tool "${toolName}"${where}: ${message}`, options);
    this.toolName = toolName;
    this.path = options.path;
  }
}

/** Why a Zod schema could not become function parameters. */
export type SchemaConversionReason = 'root_not_object' | 'unrepresentable';

/**
 * A Zod schema that cannot become function parameters: its root is not an object (`reason: 'root_not_object'`),
 * or part of it cannot be represented in JSON Schema (`reason: 'unrepresentable'`, the Zod error as `cause`).
 * `code` is always `schema_conversion_failed`.
 */
export class SchemaConversionError extends UsageError {
  readonly reason: SchemaConversionReason;

  constructor(message: string, options: AnkoleErrorOptions & { reason?: SchemaConversionReason } = {}) {
    super('schema_conversion_failed', message, options);
    this.reason = options.reason ?? 'unrepresentable';
  }
}

/** One thing in a JSON Schema that OpenAI's strict mode cannot express, and where. */
export interface StrictSchemaIssue {
  /** JSON path of the schema node, e.g. `$.properties.tags.items`. */
  path: string;
  /** What is wrong and what to do. */
  message: string;
}

/**
 * A JSON Schema that strict mode cannot express (`code: 'strict_schema_unsupported'`). `path` and the message
 * name the first problem; `issues` lists all of them.
 */
export class StrictSchemaError extends UsageError {
  readonly path: string;
  readonly issues: StrictSchemaIssue[];

  constructor(issues: StrictSchemaIssue[], options: AnkoleErrorOptions = {}) {
    const first = issues[0] ?? { path: '$', message: 'the schema is not strict-mode compatible.' };
    const more = issues.length > 1 ? ` (and ${issues.length - 1} more problem${issues.length > 2 ? 's' : ''})` : '';
    super('strict_schema_unsupported', `Strict mode cannot express the schema at ${first.path}: ${first.message}${more}`, options);
    this.path = first.path;
    this.issues = issues;
  }
}

/** A tool set that cannot be sent to the model: duplicate or invalid names, conflicting namespaces. */
export class ToolSetError extends UsageError {
  readonly toolNames: string[];

  constructor(message: string, toolNames: string[], options: AnkoleErrorOptions = {}) {
    super('tool_set_invalid', message, options);
    this.toolNames = toolNames;
  }
}

/** The model endpoint failed: network, HTTP status, or a malformed stream. */
export class ModelGatewayError extends RuntimeFailure {
  readonly status: number | undefined;

  constructor(message: string, options: AnkoleErrorOptions & { status?: number; code?: string } = {}) {
    super(options.code ?? 'model_request_failed', message, options);
    this.status = options.status;
  }
}

/** A tool did not finish within its timeout. */
export class ToolTimeoutError extends RuntimeFailure {
  readonly toolName: string;
  readonly timeoutMs: number;

  constructor(toolName: string, timeoutMs: number) {
    super('tool_timeout', `Tool "${toolName}" did not finish within ${timeoutMs} ms and was aborted.`);
    this.toolName = toolName;
    this.timeoutMs = timeoutMs;
  }
}

/** A tool call was aborted before it finished. */
export class ToolAbortedError extends RuntimeFailure {
  readonly toolName: string;

  constructor(toolName: string, options: AnkoleErrorOptions = {}) {
    super('tool_aborted', `Tool "${toolName}" was aborted before it finished.`, options);
    this.toolName = toolName;
  }
}
