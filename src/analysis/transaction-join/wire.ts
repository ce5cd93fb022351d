// What the temp files of the bounded-memory join (scan/transaction-wire.ts writes them as bytes) take from the
// analysis: the table of names they write as numbers (segment paths, topics, partition labels, states, groups:
// each repeated in every run, marker and record), and the generic walk that turns the rare parts (a verdict,
// findings, an abort's cause) into JSON and back.

/** at most this many names are kept (a hostile input's million groups are written out in full past it) */
export const MAX_NAMES = 65536

/** each distinct name (a file path, a topic, a group ...) once, up to MAX_NAMES */
export class FileTable {
  private readonly ids = new Map<string, number>()
  private readonly names: string[] = []
  /** the name's number; -1 when it is not one and the table is full */
  id(p: string): number {
    let i = this.ids.get(p)
    if (i === undefined) {
      if (this.names.length >= MAX_NAMES) return -1
      i = this.names.length
      this.ids.set(p, i)
      this.names.push(p)
    }
    return i
  }
  name(i: number): string {
    return this.names[i]!
  }
}

/** bigints as {"$n": "…"} and Sets as {"$s": […]}, anything else as it is */
export function toPlain(v: unknown): unknown {
  if (typeof v === 'bigint') return { $n: v.toString() }
  if (v === null || typeof v !== 'object') return v
  if (v instanceof Set) return { $s: [...(v as Set<unknown>)].map(toPlain) }
  if (Array.isArray(v)) return v.map(toPlain)
  const o: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(v)) if (x !== undefined) o[k] = toPlain(x)
  return o
}

export function fromPlain<T>(v: unknown): T {
  if (v === null || typeof v !== 'object') return v as T
  if (Array.isArray(v)) return v.map((x) => fromPlain(x)) as T
  const o = v as Record<string, unknown>
  if (typeof o.$n === 'string') return BigInt(o.$n) as T
  if (Array.isArray(o.$s)) return new Set(o.$s.map((x) => fromPlain(x))) as T
  const out: Record<string, unknown> = {}
  for (const [k, x] of Object.entries(o)) out[k] = fromPlain(x)
  return out as T
}
