// The order in which kafka-dump-log prints the files of its end-of-run stderr reports ("Mismatches in :",
// "Found timestamp mismatch in :", "Non-consecutive offsets in", ...). Each report is a hash map keyed by the
// file's absolute path, printed in iteration order: scala.collection.mutable.HashMap in 3.9-4.2 (Scala
// DumpLogSegments, one put per recorded entry), java.util.HashMap in 4.3+ (Java port, KAFKA-14579, one
// computeIfAbsent per recorded entry). Both orders depend on String.hashCode and on when the table grew,
// so they are simulated here call by call. test/format/report-order.test.ts checks both against the real
// collections. Pure: no imports.

/** java.lang.String#hashCode (UTF-16 code units, int32 arithmetic) */
export function javaStringHashCode(s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (Math.imul(31, h) + s.charCodeAt(i)) | 0
  return h
}

// both collections spread the hash the same way before masking it with the table size
function spread(key: string): number {
  const h = javaStringHashCode(key)
  return h ^ (h >>> 16)
}

const LOAD_FACTOR = 0.75

/**
 * Iteration order of a java.util.HashMap (default capacity 16) after `computeIfAbsent` was called with each
 * key of `calls` in turn (repeats allowed). computeIfAbsent checks for a resize before it looks the key up,
 * and links a new key in at the head of its bucket; a resize splits buckets keeping their order.
 * Buckets of 8 or more keys (treeified bins) are not modelled.
 */
export function javaHashMapOrder(calls: readonly string[]): string[] {
  let table: string[][] = []
  let size = 0
  const seen = new Set<string>()
  for (const key of calls) {
    if (table.length === 0) table = Array.from({ length: 16 }, () => [])
    else if (size > table.length * LOAD_FACTOR) table = regrow(table)
    if (seen.has(key)) continue
    seen.add(key)
    table[spread(key) & (table.length - 1)]!.unshift(key)
    size++
  }
  return table.flat()
}

/**
 * Iteration order of a scala.collection.mutable.HashMap (Scala 2.13, default capacity 16) after `put` with each
 * key of `calls` in turn (repeats allowed). put grows the table before the lookup when size + 1 reaches the
 * threshold, and keeps each bucket sorted by (spread) hash.
 */
export function scalaMutableHashMapOrder(calls: readonly string[]): string[] {
  let table: string[][] = Array.from({ length: 16 }, () => [])
  let size = 0
  const seen = new Set<string>()
  for (const key of calls) {
    if (size + 1 >= table.length * LOAD_FACTOR) table = regrow(table)
    if (seen.has(key)) continue
    seen.add(key)
    const bucket = table[spread(key) & (table.length - 1)]!
    const h = spread(key)
    let at = 0
    while (at < bucket.length && spread(bucket[at]!) <= h) at++
    bucket.splice(at, 0, key)
    size++
  }
  return table.flat()
}

// double the table; each bucket splits into the same index and index + old length, keeping relative order
function regrow(table: string[][]): string[][] {
  const next: string[][] = Array.from({ length: table.length * 2 }, () => [])
  for (const bucket of table) for (const key of bucket) next[spread(key) & (next.length - 1)]!.push(key)
  return next
}
