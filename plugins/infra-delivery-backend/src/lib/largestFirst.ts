/**
 * The `count` largest of `values`, largest first: what `[...values].sort().reverse()` starts
 * with, without sorting the rest. A page of the newest runs among the 600–1,000 ids of a
 * newest-per-group filter needs 51 of them; sorting them all was 5 % of that list's CPU
 * (docs/benchmarks.md, optimization 28).
 */
export function largestFirst(
  values: readonly string[],
  count: number,
): string[] {
  const top: string[] = [];
  if (count <= 0) {
    return top;
  }
  for (const value of values) {
    if (top.length === count && value <= top[count - 1]) {
      continue;
    }
    // Where `value` goes in `top`, which is kept in descending order.
    let low = 0;
    let high = top.length;
    while (low < high) {
      const middle = (low + high) >> 1;
      if (top[middle] > value) {
        low = middle + 1;
      } else {
        high = middle;
      }
    }
    top.splice(low, 0, value);
    if (top.length > count) {
      top.pop();
    }
  }
  return top;
}
