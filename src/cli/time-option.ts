// `--now <ISO-8601 | epoch ms>`: a point in time given on the command line.
import { InvalidArgumentError } from 'commander'

/** `2026-11-29T15:40:00Z`, `2026-11-29T15:40:00.000+01:00`, `2026-11-29` (UTC midnight) or epoch ms → epoch ms */
export function parseInstant(s: string): number {
  const v = s.trim()
  if (/^-?\d+$/.test(v)) {
    const n = Number(v)
    if (Number.isSafeInteger(n)) return n
    throw new InvalidArgumentError(`'${s}' is out of range for epoch milliseconds`)
  }
  // Date.parse reads a date-time without zone as local time: demand a zone so a post-mortem means one instant
  if (
    /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,9})?)?(Z|[+-]\d{2}:?\d{2})$/i.test(v) ||
    /^\d{4}-\d{2}-\d{2}$/.test(v)
  ) {
    const ms = Date.parse(v.replace(/(\.\d{3})\d+/, '$1'))
    if (Number.isFinite(ms)) return ms
  }
  throw new InvalidArgumentError(
    `'${s}' is not a time: give ISO-8601 with a zone (2026-11-29T15:40:00Z) or epoch milliseconds`,
  )
}
