// A big tier's output counted without holding it: a file read a chunk at a time, its matches tallied by key.
import * as fs from 'node:fs'

/**
 * The matches of `re` (global) in `file`, counted by the key `keyOf` gives each (undefined: matched but not
 * counted). A match cut at a chunk's end is completed by the next chunk; nothing before the last match is read again.
 */
export function countMatches(
  file: string,
  re: RegExp,
  keyOf: (m: RegExpMatchArray) => string | undefined,
): Record<string, number> {
  const counts: Record<string, number> = {}
  const rd = fs.openSync(file, 'r')
  const buf = Buffer.alloc(1 << 20)
  let carry = ''
  for (let n; (n = fs.readSync(rd, buf, 0, buf.length, null)) > 0; ) {
    const text = carry + buf.toString('latin1', 0, n)
    let end = 0
    for (const x of text.matchAll(re)) {
      const k = keyOf(x)
      if (k !== undefined) counts[k] = (counts[k] ?? 0) + 1
      end = x.index + x[0].length
    }
    carry = text.slice(Math.max(end, text.length - 40))
  }
  fs.closeSync(rd)
  return counts
}
