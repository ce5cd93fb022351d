// Sorting the short lists of the hot paths (a transaction's runs, a coordinator record's partitions, the commits
// inside a run): Array.prototype.sort copies every list it sorts into a work array of its own, and `transactions`
// sorts several per transaction (a million transactions: hundreds of MB of garbage). These sort in place with an
// insertion sort up to SMALL elements, stable as Array.prototype.sort is, so the order is the same.

/** insertion sort below this length; Array.prototype.sort above it */
const SMALL = 16

/** `a` sorted in place by `cmp`, stable (as `a.sort(cmp)`); returns `a` */
export function sortSmall<T>(a: T[], cmp: (x: T, y: T) => number): T[] {
  const n = a.length
  if (n > SMALL) return a.sort(cmp)
  for (let i = 1; i < n; i++) {
    const x = a[i]!
    let j = i - 1
    while (j >= 0 && cmp(a[j]!, x) > 0) {
      a[j + 1] = a[j]!
      j--
    }
    a[j + 1] = x
  }
  return a
}

/** strings sorted in place by their UTF-16 code units (as `a.sort()` sorts strings); returns `a` */
export function sortStrings(a: string[]): string[] {
  const n = a.length
  if (n > SMALL) return a.sort()
  for (let i = 1; i < n; i++) {
    const x = a[i]!
    let j = i - 1
    while (j >= 0 && a[j]! > x) {
      a[j + 1] = a[j]!
      j--
    }
    a[j + 1] = x
  }
  return a
}
