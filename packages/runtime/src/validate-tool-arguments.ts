import type { AnyWorkerAgentTool } from './worker-agent-tool.js';

/** One repair the ladder made to a model's arguments. */
export interface ArgumentRepair {
  /** Which rung: `extracted`, `closed_truncated`, `syntax_repaired`, `coerced`, `nulls_stripped`, ... */
  kind: string;
  /** What was done, for logs. */
  detail: string;
}

/** The result of `validateToolArguments`. */
export type ValidationResult<TParams = unknown> =
  | { ok: true; params: TParams; repairs: ArgumentRepair[] }
  | { ok: false; message: string };

/**
 * Parses and validates a model's argument string against a tool's schema, repairing malformed input
 * through a bounded ladder. Never throws.
 */
export function validateToolArguments<TParams>(tool: AnyWorkerAgentTool, argumentsText: string): ValidationResult<TParams> {
  // TODO(runtime-validation helper)
  try {
    const parsed = tool.schema.safeParse(JSON.parse(argumentsText === '' ? '{}' : argumentsText));
    return parsed.success ? { ok: true, params: parsed.data as TParams, repairs: [] } : { ok: false, message: parsed.error.message };
  } catch (error) {
    return { ok: false, message: String(error) };
  }
}
