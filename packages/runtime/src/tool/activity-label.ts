/**
 * For tool authors writing `describeActivity` / `describeCompletedActivity`: the first line of `text` trimmed (a prompt, a
 * title, a query), cut to `maxChars` characters with `…` when longer, so a progress line such as
 * `Starting background job "Summarise the notes"` stays one short line whatever the model passed.
 *
 * ```ts
 * describeActivity: (params) => `Recalling "${activityLabel(params.query)}"`,
 * ```
 */
export function activityLabel(text: string, maxChars = 40): string {
  const line = text.trim().split('\n')[0] ?? '';
  return line.length > maxChars ? `${line.slice(0, maxChars - 1)}…` : line;
}
