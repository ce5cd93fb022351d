// Binary searches over ascending lists, one loop for every caller: the first index at which a predicate stops
// holding (C++'s partition_point), and the numeric lower and upper bounds built on it.

/** the first index `i` in `[0, n)` for which `holds(i)` is false, where `holds` is true on a prefix and false after */
export function partitionPoint(n: number, holds: (i: number) => boolean): number {
  let lo = 0
  let hi = n
  while (lo < hi) {
    const mid = (lo + hi) >>> 1
    if (holds(mid)) lo = mid + 1
    else hi = mid
  }
  return lo
}

/** the first index of the ascending `xs` whose value is not below `x` (`xs.length`: none) */
export function lowerBound<T extends number | bigint>(xs: ArrayLike<T>, x: T): number {
  return partitionPoint(xs.length, (i) => xs[i]! < x)
}

/** the first index of the ascending `xs` whose value is above `x` (`xs.length`: none) */
export function upperBound<T extends number | bigint>(xs: ArrayLike<T>, x: T): number {
  return partitionPoint(xs.length, (i) => xs[i]! <= x)
}

/** `x` spliced into `list` at the first place whose item `stays` does not hold for (after its equals, if so told) */
export function insertAt<T>(list: T[], x: T, stays: (y: T) => boolean): void {
  list.splice(
    partitionPoint(list.length, (i) => stays(list[i]!)),
    0,
    x,
  )
}
