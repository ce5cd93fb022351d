// 64-bit values in JSON: numbers while exactly representable, strings beyond (documented in the README).
export function int64(v: bigint): number | string {
  return v <= MAX_SAFE && v >= MIN_SAFE ? Number(v) : v.toString()
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER)

/**
 * JSON.stringify that renders any bigint with int64(). The bigints are replaced before, in copies of only the
 * objects that hold one, so JSON.stringify keeps its fast path: with a replacer function it calls back for every
 * key, which was 9 s of a worker's 33 s on 1 M damaged batches in --json (each line of such a batch goes here).
 */
export function toJson(value: unknown): string {
  return JSON.stringify(jsonSafe(value))
}

/** `v` with int64() for every bigint JSON.stringify would reach (through toJSON as it would) */
function jsonSafe(v: unknown): unknown {
  if (typeof v === 'bigint') return int64(v)
  if (v === null || typeof v !== 'object') return v
  const o = v as { toJSON?: unknown }
  if (typeof o.toJSON === 'function') return jsonSafe((o.toJSON as () => unknown)())
  if (Array.isArray(v)) {
    let out: unknown[] | undefined
    for (let i = 0; i < v.length; i++) {
      const x: unknown = v[i]
      const y = jsonSafe(x)
      if (y !== x) {
        out ??= v.slice()
        out[i] = y
      }
    }
    return out ?? v
  }
  let out: Record<string, unknown> | undefined
  for (const k in v) {
    if (!Object.prototype.hasOwnProperty.call(v, k)) continue
    const x = (v as Record<string, unknown>)[k]
    const y = jsonSafe(x)
    // defined, not assigned: a key '__proto__' (a record header's, say) stays a key
    if (y !== x) {
      out ??= { ...(v as Record<string, unknown>) }
      Object.defineProperty(out, k, { value: y, enumerable: true, writable: true, configurable: true })
    }
  }
  return out ?? v
}
