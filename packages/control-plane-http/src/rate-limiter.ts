/** A token bucket per key: `take(key)` says whether a request may go now, or how long to wait. */
export interface RateLimiter {
  /** `0` when the request may go (and it is counted), else the ms until it may. */
  take(key: string): number;
}

/** `perSecond` requests a second on average per key, with bursts of up to `burst`. */
export function createRateLimiter(options: { perSecond: number; burst: number; now?: () => number }): RateLimiter {
  const now = options.now ?? Date.now;
  const buckets = new Map<string, { tokens: number; at: number }>();
  const refill = (key: string) => {
    const time = now();
    const bucket = buckets.get(key) ?? { tokens: options.burst, at: time };
    bucket.tokens = Math.min(options.burst, bucket.tokens + ((time - bucket.at) / 1000) * options.perSecond);
    bucket.at = time;
    return bucket;
  };
  const waitFor = (tokens: number) => (tokens >= 1 ? 0 : Math.ceil(((1 - tokens) / options.perSecond) * 1000));
  return {
    take(key) {
      const bucket = refill(key);
      buckets.set(key, bucket);
      if (buckets.size > 10_000) buckets.clear();
      if (bucket.tokens >= 1) {
        bucket.tokens -= 1;
        return 0;
      }
      return waitFor(bucket.tokens);
    },
  };
}
