// Ages are measured against now (the clock, or --now). A now earlier than the data's own newest timestamp
// gives negative ages, which read as nonsense unless said: one warning line, in the finding format's words.
import type { CommandContext } from './context.js'
import { isoTime } from '../format/timestamp.js'

/** the newest of the timestamps (null: none) */
export function newestOf(timestamps: Iterable<bigint | null>): bigint | null {
  let newest: bigint | null = null
  for (const t of timestamps) if (t !== null && (newest === null || t > newest)) newest = t
  return newest
}

/** the warning for a now before `newest` (undefined when it is not) */
export function nowBeforeDataWarning(nowMs: number, nowGiven: boolean, newest: bigint | null): string | undefined {
  if (newest === null || BigInt(Math.floor(nowMs)) >= newest) return undefined
  const iso = (ms: number | bigint): string => isoTime(ms)
  return (
    `tsdump: warning: ${nowGiven ? '--now' : 'the clock'} ${iso(nowMs)} is before the data's newest\n` +
    `  timestamp ${iso(newest)}: ages measured from it are negative`
  )
}

export function warnIfNowBeforeData(
  ctx: CommandContext,
  nowMs: number,
  nowGiven: boolean,
  newest: bigint | null,
): void {
  const w = nowBeforeDataWarning(nowMs, nowGiven, newest)
  if (w !== undefined) ctx.stderr.write(`${w}\n`)
}
