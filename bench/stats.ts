/**
 * The benches' order statistics: the value at a share of the sorted values
 * (the element at ⌊share × n⌋: 0.5 the median, 0.9 the p90, 1 the largest),
 * 0 when there are none.
 */
export function quantile(values: readonly number[], share: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor(share * sorted.length))] ?? 0;
}

export function median(values: readonly number[]): number {
  return quantile(values, 0.5);
}
