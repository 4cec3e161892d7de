import vm from 'node:vm';

/** Longest time one `pattern` test of a tool's JSON Schema may take before the pattern is given up on. */
export const PATTERN_TIME_LIMIT_MS = 100;

/** What Ajv needs of a regular expression: `test`, and a `toString` that identifies it. */
export interface BoundedRegExp {
  test(text: string): boolean;
  toString(): string;
}

/**
 * A regular expression for Ajv's `code.regExp` option that cannot hang validation: each `test` runs in its own
 * `vm` context with a `PATTERN_TIME_LIMIT_MS` timeout, so a catastrophic pattern from an external schema (an MCP
 * server's `"pattern": "^(a+)+$"`) against a long model string stops instead of backtracking for hours. A pattern
 * that timed out once is treated as not matching from then on (at most one timeout per pattern, however many
 * strings an argument holds). Throws a `SyntaxError` for an invalid pattern, as `new RegExp` does (Ajv then
 * refuses the schema).
 */
export function boundedRegExp(pattern: string, flags: string): BoundedRegExp {
  // Checked in this realm first, so an invalid pattern fails when the schema is compiled.
  const source = new RegExp(pattern, flags).toString();
  let context: vm.Context | undefined;
  let script: vm.Script | undefined;
  let givenUp = false;
  return {
    test(text: string): boolean {
      if (givenUp) return false;
      if (context === undefined || script === undefined) {
        context = vm.createContext({ pattern, flags, text: '' });
        vm.runInContext('globalThis.re = new RegExp(pattern, flags);', context);
        script = new vm.Script('re.lastIndex = 0; re.test(text)');
      }
      context.text = String(text);
      try {
        return script.runInContext(context, { timeout: PATTERN_TIME_LIMIT_MS }) === true;
      } catch {
        givenUp = true;
        return false;
      }
    },
    toString: () => source,
  };
}

/** Ajv reads `code` to tell its default engine (`'new RegExp'`) from a custom one. */
boundedRegExp.code = 'boundedRegExp';
