// The one 64-bit integer type of tsdump's hot paths: an I64 is a number when the value is in [-2^53, 2^53)
// (every such integer is an exact double) and a bigint otherwise, the *canonical* form. With canonical
// values `===`, Map keys and template strings behave as they do for bigints, and `<`/`>` compare numbers
// and bigints exactly, so a batch header's offsets, producer id and timestamps are read and compared
// without a BigInt per field per batch. [-2^53, 2^53) is the only cut-off: every reader and writer of
// 64-bit fields (decode/batch-view.ts, the analysis, format/ascii.ts) goes through this file.

export type I64 = number | bigint

const TWO_53 = 9007199254740992
const TWO_53N = 9007199254740992n
/** 2^53 / 2^32: a high word in [-2^21, 2^21) makes a value in [-2^53, 2^53) */
const TWO_21 = 0x200000

/** canonical form of a bigint */
export function i64(v: bigint): I64 {
  return v >= -TWO_53N && v < TWO_53N ? Number(v) : v
}

/** canonical form of a bigint or an I64 that may not be canonical */
export function toI64(v: I64): I64 {
  return typeof v === 'bigint' ? i64(v) : v
}

export function toBigInt(v: I64): bigint {
  return typeof v === 'bigint' ? v : BigInt(v)
}

/**
 * Whether `r`, the double sum of a canonical number and a safe integer, is surely that sum exactly: true when r is
 * inside (-2^53, 2^53). Rounding is monotonic and ±2^53 are doubles, so a true sum outside [-2^53, 2^53) gives
 * r <= -2^53 or r >= 2^53; r = -2^53 itself can be a rounded -2^53 - 1 (ties to even), so it is not trusted and
 * the caller takes the exact path (its result is the same number when the sum really is -2^53).
 */
export function exactSum(r: number): boolean {
  return r < TWO_53 && r > -TWO_53
}

/** a + d for a canonical a and a safe integer d (an int32 delta, 1), canonical */
export function i64Add(a: I64, d: number): I64 {
  if (typeof a === 'number') {
    const r = a + d
    if (exactSum(r)) return r
  }
  return i64(BigInt(a) + BigInt(d))
}

/** the int64 whose high word (signed) is `hi` and low word (unsigned) `lo`, canonical */
export function i64OfHalves(hi: number, lo: number): I64 {
  return hi >= -TWO_21 && hi < TWO_21 ? hi * 4294967296 + lo : (BigInt(hi) << 32n) | BigInt(lo)
}

/** `v` as its high word (signed) and low word (unsigned), to compare with stored int64s without a BigInt each */
export function int64Halves(v: bigint): [high: number, low: number] {
  return [Number(BigInt.asIntN(32, v >> 32n)), Number(BigInt.asUintN(32, v))]
}

/** the big-endian int64 at `at` of `dv`, canonical */
export function i64At(dv: DataView, at: number): I64 {
  const hi = dv.getInt32(at)
  if (hi >= -TWO_21 && hi < TWO_21) return hi * 4294967296 + dv.getUint32(at + 4)
  return dv.getBigInt64(at)
}

/**
 * The big-endian int64 at b[at] (the caller has checked the 8 bytes are there), canonical: byte by byte, as
 * Buffer.readInt32BE validates its argument at each call
 */
export function i64AtBytes(b: Uint8Array, at: number): I64 {
  const hi = (b[at]! << 24) | (b[at + 1]! << 16) | (b[at + 2]! << 8) | b[at + 3]!
  return i64OfHalves(hi, ((b[at + 4]! << 24) | (b[at + 5]! << 16) | (b[at + 6]! << 8) | b[at + 7]!) >>> 0)
}

/**
 * i64AtBytes as a bigint: one BigInt made, where Buffer.readBigInt64BE makes four (each word, the shift, the sum);
 * the coordinator's records carry three to five each
 */
export function bigInt64At(b: Uint8Array, at: number): bigint {
  return toBigInt(i64AtBytes(b, at))
}

// A bigint's value as a number without Number(bigint), a runtime call (20-25 ns against 8 here on Node 20; the
// temp files of `transactions` convert every offset and timestamp they write): stored into a BigInt64Array and
// read back as its two 32-bit halves. A value past int64 would wrap there, so it takes Number's path.
const CELL = new BigInt64Array(1)
const SIGNED = new Int32Array(CELL.buffer)
const UNSIGNED = new Uint32Array(CELL.buffer)
const LITTLE_ENDIAN = new Uint8Array(new Uint16Array([1]).buffer)[0] === 1
const HIGH = LITTLE_ENDIAN ? 1 : 0
const LOW = LITTLE_ENDIAN ? 0 : 1

/** Number(v), the same double (rounded once, to nearest even) */
export function toNumber(v: bigint): number {
  if (BigInt.asIntN(64, v) !== v) return Number(v)
  CELL[0] = v
  return SIGNED[HIGH]! * 4294967296 + UNSIGNED[LOW]!
}

/** BigInt(n) of a safe integer, made from its halves in the same cell (BigInt(number) checks and converts a double) */
export function fromSafeNumber(n: number): bigint {
  const hi = Math.floor(n / 4294967296)
  SIGNED[HIGH] = hi
  UNSIGNED[LOW] = n - hi * 4294967296
  return CELL[0]!
}
