// Epoch milliseconds as ISO-8601 for the analyses' messages, or a plain marker when the value is outside what
// Date can show (a damaged header or record carries any int64; Date#toISOString throws RangeError on it).
// format/timestamp.ts isoTime is the printers' fast form of the same rule.
export function isoOrOutOfRange(ms: bigint | number): string {
  const n = Number(ms)
  return Number.isFinite(n) && Math.abs(n) <= 8.64e15 ? new Date(n).toISOString() : 'out of range'
}
