// Int64 values (offsets, producer ids, timestamps) for the streaming analysis, without a BigInt per
// field per batch. An I64 is a number when the value is in [-2^53, 2^53) (every such integer is an
// exact double) and a bigint otherwise: the *canonical* form. With canonical values `===`, Map keys and
// template strings behave as they do for bigints, and `<`/`>` compare numbers and bigints exactly.
// Arithmetic goes through i64Add, which leaves the number range exactly.

export type I64 = number | bigint

const TWO_53 = 9007199254740992
const TWO_53N = 9007199254740992n

/** canonical form of a bigint */
export function i64 (v: bigint): I64 {
  return v >= -TWO_53N && v < TWO_53N ? Number(v) : v
}

/** canonical form of a bigint or an I64 that may not be canonical */
export function toI64 (v: I64): I64 {
  return typeof v === 'bigint' ? i64(v) : v
}

export function toBigInt (v: I64): bigint {
  return typeof v === 'bigint' ? v : BigInt(v)
}

/** a + d for a canonical a and a safe integer d (an int32 delta, 1), canonical */
export function i64Add (a: I64, d: number): I64 {
  if (typeof a === 'number') {
    const r = a + d
    // exact unless the true sum left [-2^53, 2^53): rounding is monotonic and ±2^53 are doubles
    if (r < TWO_53 && r >= -TWO_53) return r
  }
  return i64(BigInt(a) + BigInt(d))
}
