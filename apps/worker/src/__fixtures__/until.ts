/**
 * Calls `check` every `intervalMs` until it returns something other than `undefined`, and returns that; throws
 * `timed out waiting for <what>` after `timeoutMs`.
 */
export async function until<T>(check: () => Promise<T | undefined> | T | undefined, what: string, timeoutMs = 30_000, intervalMs = 50): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await check();
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, intervalMs));
  }
}
