/** Sign-in attempts answered per remote address: a burst, then a steady rate. */
export interface SignInLimiter {
  /** Takes one attempt for `address`: 0 when allowed, else the ms until the next one is. */
  take(address: string): number;
}

/**
 * A token bucket per remote address (default: bursts of 10 sign-ins, then one a second), so wrong tokens cannot be
 * tried fast; at most `maxAddresses` (default 10 000) are remembered, the oldest forgotten first.
 */
export function createSignInLimiter(options: { burst?: number; perSecond?: number; maxAddresses?: number; now?: () => number } = {}): SignInLimiter {
  const burst = options.burst ?? 10;
  const perSecond = options.perSecond ?? 1;
  const maxAddresses = options.maxAddresses ?? 10_000;
  const now = options.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  return {
    take(address) {
      const time = now();
      const bucket = buckets.get(address) ?? { tokens: burst, at: time };
      bucket.tokens = Math.min(burst, bucket.tokens + ((time - bucket.at) / 1000) * perSecond);
      bucket.at = time;
      buckets.delete(address);
      if (buckets.size >= maxAddresses) buckets.delete(buckets.keys().next().value as string);
      buckets.set(address, bucket);
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return Math.ceil(((1 - bucket.tokens) / perSecond) * 1000);
    },
  };
}
