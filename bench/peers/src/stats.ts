// Quantiles of timing samples.

export interface Spread {
  median: number;
  p25: number;
  p75: number;
  count: number;
}

/** Median and quartiles (nearest rank) of `samples`. */
export function spread(samples: readonly number[]): Spread {
  if (samples.length === 0) return { median: Number.NaN, p25: Number.NaN, p75: Number.NaN, count: 0 };
  const sorted = [...samples].sort((left, right) => left - right);
  const at = (fraction: number) => sorted[Math.min(sorted.length - 1, Math.floor(fraction * sorted.length))] as number;
  return { median: at(0.5), p25: at(0.25), p75: at(0.75), count: sorted.length };
}

/** "12.3 [11.9–13.0]" with a precision that suits the magnitude. */
export function formatSpread(value: Spread): string {
  if (value.count === 0) return 'n/a';
  return `${formatNumber(value.median)} [${formatNumber(value.p25)}–${formatNumber(value.p75)}]`;
}

export function formatNumber(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  const magnitude = Math.abs(value);
  if (magnitude >= 1000) return value.toFixed(0);
  if (magnitude >= 100) return value.toFixed(0);
  if (magnitude >= 10) return value.toFixed(1);
  return value.toFixed(2);
}

export function formatRatio(value: number): string {
  if (!Number.isFinite(value)) return 'n/a';
  return `${value >= 10 ? value.toFixed(0) : value >= 0.1 ? value.toFixed(1) : value.toFixed(2)}×`;
}
