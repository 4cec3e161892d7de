import { jsonNestingDepth, MAX_ARGUMENT_BYTES, MAX_ARGUMENT_DEPTH, MAX_SYNTAX_REPAIR_CHARS, utf8SizeOver } from '../validation/argument-limits.js';
import { closeTruncatedJson } from './close-truncated-json.js';
import { extractJsonValue, firstOfRepeatedText, stripOuterFences } from './extract-json-value.js';
import { describeValue } from '../validation/format-validation-message.js';
import { normalizeJsonSyntax } from './normalize-json-syntax.js';
import { repairJsonSyntax } from './repair-json-syntax.js';
import type { ArgumentRepair } from './argument-repair.js';

/** The outcome of `parseArgumentsJson`. */
export type ParsedArguments =
  | {
      ok: true;
      value: Record<string, unknown>;
      /** Repairs made to get a JSON object (empty when the text was a JSON object, or empty). */
      repairs: ArgumentRepair[];
      /** The input was cut off: only its complete part is in `value`. */
      truncated: boolean;
    }
  /** `problem` says what is wrong, for the model. */
  | { ok: false; problem: string };

/**
 * The text rungs of the repair ladder: turns a model's argument string into a JSON object, cheapest and safest
 * first, stopping at the first that gives an object:
 * 1. `JSON.parse` (empty or whitespace-only text is `{}`); valid JSON is never changed;
 * 2. one object taken out of a code fence or surrounding prose (`extractJsonValue`; never a guess between two);
 * 3. cut-off or unbalanced text closed, keeping only what was complete (`closeTruncatedJson`);
 * 4. syntax repair: a linear normalising pass (`normalizeJsonSyntax`: Python / upper-case literals, tuples, digit
 *    separators, comments, wrong brackets, doubled, missing and unescaped quotes), closed again when that is enough,
 *    else `jsonrepair` (`repairJsonSyntax`, on text up to 64 KiB).
 * A JSON string holding an object (double-encoded arguments) is decoded once. Input over 1 MiB (UTF-8) or
 * nested deeper than 512 is refused before any work. Linear-ish in the input; never throws.
 */
export function parseArgumentsJson(text: string): ParsedArguments {
  const bytes = utf8SizeOver(text, MAX_ARGUMENT_BYTES);
  if (bytes !== undefined) return { ok: false, problem: `the arguments are ${bytes} bytes; the limit is ${MAX_ARGUMENT_BYTES} bytes (1 MiB).` };
  return parseText(text, true);
}

function parseText(text: string, allowUnwrap: boolean): ParsedArguments {
  // A valid JSON text nested deeper than the limit has at least 2 × (limit + 1) characters.
  if (text.length > 2 * MAX_ARGUMENT_DEPTH + 1 && jsonNestingDepth(text, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return tooDeep();
  let value: unknown;
  try {
    value = JSON.parse(text);
  } catch {
    if (text.trim() === '') return { ok: true, value: {}, repairs: [], truncated: false };
    return repairText(text, allowUnwrap);
  }
  return fromValue(value, [], false, allowUnwrap, '');
}

function repairText(text: string, allowUnwrap: boolean): ParsedArguments {
  if (jsonNestingDepth(text, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return tooDeep();

  // Rung 2: one object out of a code fence or prose.
  const extracted = extractJsonValue(text);
  const repairs: ArgumentRepair[] = [];
  let source = text;
  if (extracted.kind === 'one') {
    const where = extracted.from === 'fence' ? 'took the JSON object out of a Markdown code fence' : 'took the JSON object out of the text around it';
    repairs.push({
      kind: 'extracted',
      detail: extracted.copies > 1 ? `${where}; the same object was sent ${extracted.copies} times back to back, took it once` : where,
    });
    if (extracted.parsed !== undefined) return { ok: true, value: extracted.parsed, repairs, truncated: false };
    source = extracted.text;
    // The whole-text scan may have read this part as the inside of a string (a quote in the prose before it).
    if (jsonNestingDepth(source, MAX_ARGUMENT_DEPTH) > MAX_ARGUMENT_DEPTH) return tooDeep();
  }

  // The same (damaged) object sent twice back to back: read one copy.
  const repeated = extracted.kind === 'none' ? firstOfRepeatedText(source) : undefined;
  if (repeated !== undefined) {
    source = repeated;
    repairs.push({ kind: 'extracted', detail: 'the same text was sent twice back to back; read it once' });
  }

  // A fence left at the very start or end (not closed, or a stray one after the value) is not part of the JSON.
  const unfenced = stripOuterFences(source);
  if (unfenced !== undefined && unfenced !== '') {
    source = unfenced;
    if (extracted.kind !== 'one') repairs.push({ kind: 'extracted', detail: 'removed a Markdown code fence left at the start or end' });
  }

  // Rung 3: close what was cut off or left unbalanced.
  const closed = closeTruncatedJson(source);
  if (closed.ok) {
    const bracketFix = closed.fixes.some((fix) => fix.includes('"]"') || fix.includes('"}"'));
    repairs.push({
      kind: closed.truncated ? 'closed_truncated' : bracketFix ? 'closed_unbalanced' : 'syntax_repaired',
      detail: closed.fixes.join('; '),
    });
    return fromValue(closed.value, repairs, closed.truncated, allowUnwrap, ' (after closing the cut-off input)');
  }

  // Rung 4: syntax repair. First the linear normalising pass (Python and upper-case literals, tuples, digit
  // separators, comments, brackets, quotes), then closing again (cut-off input that also had those), then jsonrepair
  // (bounded: it is quadratic on some input).
  const normalized = closed.refuse === true ? { text: source, fixes: [] } : normalizeJsonSyntax(source);
  if (normalized.fixes.length > 0 && jsonNestingDepth(normalized.text, MAX_ARGUMENT_DEPTH) <= MAX_ARGUMENT_DEPTH) {
    const reclosed = closeTruncatedJson(normalized.text);
    if (reclosed.ok) {
      repairs.push({ kind: reclosed.truncated ? 'closed_truncated' : 'syntax_repaired', detail: [...normalized.fixes, ...reclosed.fixes].join('; ') });
      return fromValue(reclosed.value, repairs, reclosed.truncated, allowUnwrap, ' (after syntax repair)');
    }
  }
  const repairable = source.length <= MAX_SYNTAX_REPAIR_CHARS && closed.refuse !== true;
  let repaired = repairable ? repairJsonSyntax(normalized.text) : undefined;
  // jsonrepair's own readings (CSV-style doubled quotes, …) of the text as it came, when the normalised one fails.
  if (repairable && repaired?.ok !== true && normalized.text !== source) repaired = repairJsonSyntax(source);
  if (repaired?.ok === true && jsonNestingDepth(repaired.text, MAX_ARGUMENT_DEPTH) <= MAX_ARGUMENT_DEPTH) {
    try {
      const value: unknown = JSON.parse(repaired.text);
      repairs.push({ kind: 'syntax_repaired', detail: ['repaired the JSON syntax with jsonrepair', ...normalized.fixes, ...repaired.fixes].join('; ') });
      return fromValue(value, repairs, false, allowUnwrap, ' (after syntax repair)');
    } catch {
      // Fall through to the error below.
    }
  }

  if (extracted.kind === 'several') {
    return { ok: false, problem: `found ${extracted.count} separate JSON objects; send exactly one object per call.` };
  }
  const offset = source === text ? 0 : Math.max(0, text.indexOf(source));
  const position = offset + closed.position;
  const limit = repairable || closed.refuse === true ? '' : ` (syntax repair is only tried on arguments up to ${MAX_SYNTAX_REPAIR_CHARS / 1024} KiB)`;
  return { ok: false, problem: `not valid JSON: ${closed.message} at ${where(text, position)}${limit}.` };
}

/** Checks that a parsed value is an object, decoding a double-encoded object string once. */
function fromValue(value: unknown, repairs: ArgumentRepair[], truncated: boolean, allowUnwrap: boolean, after: string): ParsedArguments {
  if (typeof value === 'object' && value !== null && !Array.isArray(value)) {
    return { ok: true, value: value as Record<string, unknown>, repairs, truncated };
  }
  if (typeof value === 'string' && allowUnwrap && value.trim().startsWith('{')) {
    const inner = parseText(value, false);
    if (!inner.ok) return { ok: false, problem: `the arguments are a JSON string holding an object, and that object is unreadable: ${inner.problem}` };
    return {
      ok: true,
      value: inner.value,
      repairs: [...repairs, { kind: 'unwrapped', detail: 'the arguments were a JSON string holding the object; decoded it once' }, ...inner.repairs],
      truncated: truncated || inner.truncated,
    };
  }
  return { ok: false, problem: `the arguments must be a JSON object ({...}), received ${describeValue(value)}${after}.` };
}

function tooDeep(): ParsedArguments {
  return { ok: false, problem: `the arguments are nested deeper than ${MAX_ARGUMENT_DEPTH} levels.` };
}

function where(text: string, position: number): string {
  let line = 1;
  let lineStart = 0;
  for (let i = text.indexOf('\n'); i >= 0 && i < position; i = text.indexOf('\n', i + 1)) {
    line++;
    lineStart = i + 1;
  }
  return `position ${position} (line ${line}, column ${position - lineStart + 1})`;
}
