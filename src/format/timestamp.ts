// Epoch milliseconds as ISO-8601, or a plain marker when the value is outside what Date can show
// (damaged headers carry arbitrary int64 timestamps; Date#toISOString throws RangeError on them).
export function isoTime (ms: bigint | number): string {
  const n = Number(ms)
  if (!Number.isFinite(n) || Math.abs(n) > 8.64e15) return 'out of range'
  return new Date(n).toISOString()
}
