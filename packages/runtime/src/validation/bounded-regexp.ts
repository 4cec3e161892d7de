import vm from 'node:vm';

/** Longest time one `pattern` test of a tool's JSON Schema may take before the pattern is given up on. */
export const PATTERN_TIME_LIMIT_MS = 100;

/** What Ajv needs of a regular expression: `test`, and a `toString` that identifies it. */
export interface BoundedRegExp {
  test(text: string): boolean;
  toString(): string;
}

/** Ajv's `code.regExp` option: makes a regular expression from a pattern and its flags. */
export interface BoundedRegExpEngine {
  (pattern: string, flags: string): BoundedRegExp;
  /** Ajv reads `code` to tell its default engine (`'new RegExp'`) from a custom one. */
  code: string;
}

/**
 * A regular-expression engine for Ajv's `code.regExp` option that cannot hang validation: every `test` runs in a
 * `vm` context with a `PATTERN_TIME_LIMIT_MS` timeout, so a catastrophic pattern from an external schema (an MCP
 * server's `"pattern": "^(a+)+$"`) against a long model string stops instead of backtracking for hours. A pattern
 * that timed out once is treated as not matching from then on (at most one timeout per pattern, however many
 * strings an argument holds). The engine's patterns share one context, made on first use (about 150 KiB).
 * An invalid pattern throws a `SyntaxError`, as `new RegExp` does (Ajv then refuses the schema).
 */
export function createBoundedRegExpEngine(): BoundedRegExpEngine {
  let context: vm.Context | undefined;
  let script: vm.Script | undefined;
  let count = 0;
  const engine = (pattern: string, flags: string): BoundedRegExp => {
    // Checked in this realm first, so an invalid pattern fails when the schema is compiled.
    const source = new RegExp(pattern, flags).toString();
    if (context === undefined || script === undefined) {
      context = vm.createContext({ expressions: [], index: 0, text: '', pattern: '', flags: '' });
      script = new vm.Script('expressions[index].lastIndex = 0; expressions[index].test(text)');
    }
    const shared = context;
    const test = script;
    const index = count++;
    Object.assign(shared, { pattern, flags, index });
    vm.runInContext('expressions[index] = new RegExp(pattern, flags);', shared);
    let givenUp = false;
    return {
      test(text: string): boolean {
        if (givenUp) return false;
        shared.index = index;
        shared.text = String(text);
        try {
          return test.runInContext(shared, { timeout: PATTERN_TIME_LIMIT_MS }) === true;
        } catch {
          givenUp = true;
          return false;
        } finally {
          shared.text = '';
        }
      },
      toString: () => source,
    };
  };
  return Object.assign(engine, { code: 'boundedRegExp' });
}
