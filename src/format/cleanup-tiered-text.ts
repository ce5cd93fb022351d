// `cleanup`'s lines for a topic with remote storage: what retention deletes locally and remotely, and the log
// starts it leaves (analysis/cleanup/remote-retention.ts).
import type { TieredRetention } from '../analysis/cleanup/remote-retention.js'
import { wrapWords } from './wrap.js'

export function tieredRetentionLines(t: TieredRetention): string[] {
  if ('unknown' in t) return wrapWords(`retention across tiers not predicted: ${t.unknown}`, '  ')
  const copied =
    t.highestOffsetInRemoteStorage < 0n
      ? 'nothing copied to remote storage yet'
      : `copied to remote storage up to offset ${t.highestOffsetInRemoteStorage}`
  const local =
    t.localDeleted.length === 0
      ? `local retention deletes nothing now; local log start stays ${t.localLogStartOffsetAfter}`
      : `local retention deletes ${t.localDeleted.length} segment(s) now: ${t.localDeleted.map((d) => `${d.baseOffset}\u00a0(${d.reason})`).join(', ')}; local log start ${t.localLogStartOffset} -> ${t.localLogStartOffsetAfter}`
  const remote =
    t.remoteDeleted.length === 0
      ? `remote retention deletes nothing now; log start stays ${t.logStartOffsetAfter}`
      : `remote retention deletes ${t.remoteDeleted.length} segment(s) now: ${t.remoteDeleted.map((d) => `${d.startOffset}..${d.endOffset}\u00a0(${d.reason})`).join(', ')}; log start ${t.logStartOffset} -> ${t.logStartOffsetAfter}`
  return [
    ...wrapWords(
      `remote storage: ${copied}; retention.bytes counts ${t.wholeLogBytes} bytes (remote segments and local bytes not yet copied)`,
      '  ',
    ),
    ...wrapWords(local, '  '),
    ...wrapWords(remote, '  '),
  ]
}
