// Epoch milliseconds as ISO-8601, or a plain marker when the value is outside what Date can show
// (damaged headers carry arbitrary int64 timestamps; Date#toISOString throws RangeError on them): the rule is
// bytes/iso-time.ts's; this is its fast form for the printers.
import { isoOrOutOfRange } from '../bytes/iso-time.js'
import { toNumber } from '../bytes/int64.js'

export function isoTime(ms: bigint | number): string {
  const n = typeof ms === 'bigint' ? toNumber(ms) : Number(ms)
  const milli = isoSecondOf(n)
  if (milli >= 0) return lastPrefix + (milli < 10 ? '00' : milli < 100 ? '0' : '') + milli + 'Z'
  return isoOrOutOfRange(n)
}

/**
 * For epoch milliseconds `n` in years 0000-9999: the milliseconds within the second, with the second's
 * text ("2023-11-14T22:13:20.") in isoSecondText; -1 for other times (isoTime's general path).
 * A timeline prints a time per transaction, mostly within the same second as the last one: that second's
 * text is kept (Date#toISOString was 12% of txns' CPU).
 */
export function isoSecondOf(n: number): number {
  if (!(Number.isInteger(n) && n >= 0 && n < MAX_FOUR_DIGIT_YEAR)) return -1
  const sec = Math.floor(n / 1000)
  if (sec !== lastSecond) {
    lastSecond = sec
    lastPrefix = new Date(sec * 1000).toISOString().slice(0, 20)
  }
  return n - sec * 1000
}

/** the text of the second isoSecondOf last returned milliseconds of, up to and with its '.' */
export function isoSecondText(): string {
  return lastPrefix
}

/** 10000-01-01T00:00:00Z: from here on toISOString writes a six-digit, signed year */
const MAX_FOUR_DIGIT_YEAR = 253402300800000
let lastSecond = NaN
let lastPrefix = ''
