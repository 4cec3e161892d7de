/**
 * A readable message for anything thrown: the `message` of an error (never its stack), a string as it is, else
 * its JSON or string form. Never throws itself, whatever was thrown (a null-prototype object, a throwing
 * `toString` or `message` getter): the callers build error outputs and results that must not fail in turn.
 */
export function describeThrown(thrown: unknown): string {
  try {
    if (thrown instanceof Error) {
      let message: unknown;
      try {
        message = thrown.message;
      } catch {
        message = undefined;
      }
      return typeof message === 'string' && message !== '' ? message : thrown.name;
    }
    if (typeof thrown === 'string') return thrown;
    const json = JSON.stringify(thrown);
    if (json !== undefined) return json;
  } catch {
    // Fall back to the string form below.
  }
  try {
    return String(thrown);
  } catch {
    return 'an unreadable value was thrown';
  }
}
