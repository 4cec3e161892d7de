import vm from 'node:vm';
import { ComputerToolError } from './errors.js';

/** A matching line: which text of the batch, and which line of it (both 0-based). */
export interface LineHit {
  text: number;
  line: number;
}

/** Finds the lines of texts that match a regular expression, within a time budget. */
export interface LineMatcher {
  /**
   * The matching lines of a batch of texts, in order, at most `limit`. Give several texts per call:
   * each call pays for a timeout watchdog (≈ 0.1 ms).
   * @throws ComputerToolError (`regex_too_slow`) once the matcher's whole budget is spent.
   */
  matchLines(texts: readonly string[], limit: number): LineHit[];
}

const SCAN = `
var re = new RegExp(pattern, flags);
function scan() {
  var hits = [];
  for (var text = 0; text < inputs.length && hits.length < limit * 2; text += 1) {
    var lines = inputs[text].split('\\n');
    for (var line = 0; line < lines.length && hits.length < limit * 2; line += 1) {
      if (re.test(lines[line])) hits.push(text, line);
    }
  }
  return hits;
}`;

/**
 * A line matcher for a model-written regular expression. Matching runs in a `vm` context with a
 * timeout, so a pathological pattern (catastrophic backtracking) is interrupted instead of blocking
 * the worker; `budgetMs` is shared by every call of this matcher.
 * @throws ComputerToolError (`regex_invalid`) when the pattern does not compile.
 */
export function createLineMatcher(pattern: string, flags: string, budgetMs: number): LineMatcher {
  try {
    new RegExp(pattern, flags);
  } catch (error) {
    throw new ComputerToolError('regex_invalid', `The regular expression is not valid: ${(error as Error).message}`);
  }
  const context = vm.createContext({ pattern, flags, inputs: [], limit: 0 });
  vm.runInContext(SCAN, context);
  const deadline = performance.now() + budgetMs;
  return {
    matchLines(texts, limit) {
      const remaining = Math.floor(deadline - performance.now());
      if (remaining <= 0) throw tooSlow(budgetMs);
      context.inputs = texts;
      context.limit = limit;
      try {
        const flat = Array.from(vm.runInContext('scan()', context, { timeout: remaining }) as ArrayLike<number>);
        const hits: LineHit[] = [];
        for (let index = 0; index + 1 < flat.length; index += 2) hits.push({ text: flat[index] ?? 0, line: flat[index + 1] ?? 0 });
        return hits;
      } catch (error) {
        if ((error as NodeJS.ErrnoException).code === 'ERR_SCRIPT_EXECUTION_TIMEOUT') throw tooSlow(budgetMs);
        throw error;
      } finally {
        context.inputs = [];
      }
    },
  };
}

function tooSlow(budgetMs: number): ComputerToolError {
  return new ComputerToolError(
    'regex_too_slow',
    `The search took longer than ${budgetMs} ms and was stopped; the regular expression may backtrack catastrophically (nested quantifiers like (a+)+). Simplify it, or narrow the path or glob.`,
  );
}
