// 64-bit values in JSON: numbers while exactly representable, strings beyond (documented in the README).
export function int64 (v: bigint): number | string {
  return v <= MAX_SAFE && v >= MIN_SAFE ? Number(v) : v.toString()
}

const MAX_SAFE = BigInt(Number.MAX_SAFE_INTEGER)
const MIN_SAFE = BigInt(Number.MIN_SAFE_INTEGER)

/** JSON.stringify that renders any bigint with int64() */
export function toJson (value: unknown): string {
  return JSON.stringify(value, (_k, v: unknown) => typeof v === 'bigint' ? int64(v) : v)
}
