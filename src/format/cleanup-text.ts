// `cleanup` text: one block per partition, within 80 columns.
import type { CleanupPartition, CleanupResult } from '../analysis/cleanup/result.js'
import { commandLines, wrapWords } from './wrap.js'
import type { PrintOptions, TextStyle } from './print-options.js'
import { paintSeverity, textStyle } from './print-options.js'
import type { PrinterOutput } from './printer.js'
import { findingPlace, messageAfterPlace } from './finding-text.js'
import { tieredRetentionLines } from './cleanup-tiered-text.js'

const SOURCE: Record<string, string> = {
  DYNAMIC_TOPIC_CONFIG: 'topic',
  DYNAMIC_DEFAULT_BROKER_CONFIG: 'broker',
  '--config': 'flag',
  INTERNAL_TOPIC_DEFAULT: 'internal',
  DEFAULT_CONFIG: 'default',
  CLEANER_OFFSET_CHECKPOINT: 'listed in cleaner-offset-checkpoint',
  UNKNOWN: 'no config read',
}
const RULE: Record<string, string> = {
  'last-stable-offset': 'the last stable offset',
  'active-segment': 'the active segment',
  'min-compaction-lag': 'min.compaction.lag.ms',
}

/** a key as text when it is printable UTF-8, else its hex */
export function keyText(hex: string): string {
  const s = Buffer.from(hex, 'hex').toString('utf8')
  return /^[\x20-\x7e]*$/.test(s) ? s : `0x${hex}`
}

function iso(ms: bigint | number): string {
  return new Date(Number(ms)).toISOString()
}

function block(p: CleanupPartition, top: number, st: TextStyle): string[] {
  // offsets inclusive, as every range tsdump prints (the log end offset is the next offset to be written)
  const log =
    p.logEndOffset > p.logStartOffset
      ? `log ${p.logStartOffset}..${p.logEndOffset - 1n}`
      : `log empty at ${p.logStartOffset}`
  const lines = [`${st.chalk.bold(p.label)}  cleanup.policy=${p.cleanupPolicy}  ${log}  LSO ${p.lastStableOffset}`]
  const used = [
    'cleanup.policy',
    ...(p.compaction !== null
      ? ['min.cleanable.dirty.ratio', 'min.compaction.lag.ms', 'max.compaction.lag.ms', 'delete.retention.ms']
      : []),
    ...(p.retention !== null || p.tieredRetention !== undefined ? ['retention.ms', 'retention.bytes'] : []),
    ...(p.tieredRetention !== undefined
      ? [
          ...(p.configs['remote.storage.enable']?.source !== 'DEFAULT_CONFIG' ? ['remote.storage.enable'] : []),
          'local.retention.ms',
          'local.retention.bytes',
        ]
      : []),
  ]
  // configs unknown (a damaged metadata log): no value is shown as if it were the topic's
  if (p.cleanupPolicy !== 'unknown')
    lines.push(
      ...wrapWords(
        used.map((n) => `${n}=${p.configs[n]!.value}\u00a0(${SOURCE[p.configs[n]!.source]})`).join(' '),
        '  ',
        st.width,
      ),
    )
  const c = p.compaction
  if (c !== null) {
    lines.push(
      `  dirty from ${c.firstDirtyOffset}${c.checkpointReset ? ' (checkpoint reset)' : ''}, uncleanable from ${c.firstUncleanableOffset}: ${RULE[c.uncleanableBecause]}`,
    )
    const pct = (c.dirtyRatio * 100).toFixed(1)
    const min = p.configs['min.cleanable.dirty.ratio']!.value
    lines.push(
      ...wrapWords(
        c.cleanableNow
          ? `cleaner picks it now: dirty ratio ${pct}% (${c.cleanableBytes} of ${c.totalBytes} bytes) ${c.compactionForced ? 'and max.compaction.lag.ms forces it' : `> min.cleanable.dirty.ratio ${min}`}`
          : c.cleanableBytes === 0
            ? 'cleaner has nothing to clean: no dirty segment below the uncleanable offset'
            : `cleaner waits: dirty ratio ${pct}% is not above min.cleanable.dirty.ratio ${min}`,
        '  ',
        st.width,
      ),
    )
    if (c.recordsAfterCleaning !== null) {
      const t = c.tombstones
      lines.push(
        ...wrapWords(
          `next clean (below offset ${c.cleanedUpTo}): ${c.recordsBefore} data records -> ${c.recordsAfterCleaning},` +
            ` ${c.abortedRecordsRemovable} aborted removed; tombstones ${t.kept} kept, ${t.removed} removed` +
            `${t.nextExpiryMs !== null ? ` (first expires ${iso(t.nextExpiryMs)})` : ''}; markers ${c.markers.kept} kept, ${c.markers.removed} removed`,
          '  ',
          st.width,
        ),
      )
    }
    if (c.offsetMapFull) {
      lines.push(
        ...wrapWords(
          `the cleaner's offset map (log.cleaner.dedupe.buffer.size) fills after ${c.dirtyKeys} keys: this clean stops at ${c.cleanedUpTo}, the rest waits for the next one`,
          '  ',
          st.width,
        ),
      )
    }
    if (top > 0 && c.topDirtyKeys.length > 0) {
      lines.push('  keys with most records in the dirty section:')
      for (const k of c.topDirtyKeys.slice(0, top))
        lines.push(`    ${String(k.records).padStart(8)}  ${keyText(k.key).slice(0, 64)}`)
    }
  }
  const held = p.openTransaction
  if (p.blockedBy === null && held !== null && held.ageMs !== null) {
    lines.push(
      ...wrapWords(
        `the last stable offset is held by producer ${held.producerId} (epoch ${held.producerEpoch}) since offset ${held.firstOffset}, ` +
          `open ${(Number(held.ageMs) / 60_000).toFixed(1)}\u00a0min (${held.ageSource === 'coordinator' ? "coordinator's start" : 'event time'})` +
          `${held.hanging ? ': HANGING' : held.overdue ? ': its coordinator is overdue' : held.coordinatorUnknown === true ? ": its coordinator's state is unknown" : ''}`,
        '  ',
        st.width,
      ),
    )
  }
  if (p.blockedBy !== null) {
    const b = p.blockedBy
    // in __consumer_offsets the open transaction is a transactional offset commit (TxnOffsetCommit) not yet ended
    const what = p.topic === '__consumer_offsets' ? 'open transactional offset commit' : 'open transaction'
    lines.push(
      ...wrapWords(
        `held by the ${what} of producer ${b.producerId} (epoch ${b.producerEpoch}) since offset ${b.firstOffset}` +
          `${b.lastTimestamp !== null ? `, last write ${iso(b.lastTimestamp)}` : ''}` +
          `${b.ageMs !== null ? `, open ${(Number(b.ageMs) / 60_000).toFixed(1)}\u00a0min (${b.ageSource === 'coordinator' ? "coordinator's start" : 'event time'})` : ''}` +
          `${b.hanging ? ': HANGING' : b.overdue ? ': its coordinator is overdue' : b.coordinatorUnknown === true ? ": its coordinator's state is unknown" : ''}` +
          `${b.commands.length > 0 ? '; to abort it:' : ' (no abort is advised: see its finding)'}`,
        '  ',
        st.width,
      ),
    )
    // wrapped with shell continuations, so that each command still pastes as one
    for (const cmd of b.commands) lines.push(...commandLines(cmd, '    ', st.width))
  }
  const ret = p.retention
  if (ret !== null) {
    lines.push(
      ...wrapWords(
        ret.deleted.length === 0
          ? `retention deletes nothing now; log start stays ${ret.logStartOffsetAfterRetention}`
          : `retention deletes ${ret.deleted.length} segment(s) now: ${ret.deleted.map((d) => `${d.baseOffset}\u00a0(${d.reason})`).join(', ')}; log start -> ${ret.logStartOffsetAfterRetention}`,
        '  ',
        st.width,
      ),
    )
  }
  for (const f of p.findings) {
    // coloured after the cut, so that the colour's escapes do not count as columns
    const w = wrapWords(`${f.severity} ${f.code}: ${findingPlace(f)}${messageAfterPlace(f)}`, '  ', st.width)
    lines.push(
      `  ${paintSeverity(st.chalk, f.severity, f.severity)}${w[0]!.slice(2 + f.severity.length)}`,
      ...w.slice(1),
    )
  }
  if (p.tieredRetention !== undefined) lines.push(...tieredRetentionLines(p.tieredRetention))
  return lines
}

/** the lines above the partitions: when, and where the configs came from */
function headLines(r: Omit<CleanupResult, 'partitions'>, st: TextStyle): string[] {
  return wrapWords(
    `as of ${iso(r.nowMs)}${r.nowGiven ? ' (--now)' : ''}; ${r.metadataLost !== undefined ? `configs unknown: ${r.metadataLost}` : `configs from ${r.metadataLog ?? 'flags and defaults (no metadata log found)'}`}`,
    '',
    st.width,
  )
}

/** a partition's block, its HANGING in red */
function blockText(p: CleanupPartition, top: number, st: TextStyle): string {
  return block(p, top, st)
    .map((l) => l.replace(/: HANGING\b/, `: ${st.chalk.red('HANGING')}`))
    .join('\n')
}

export function cleanupText(
  r: CleanupResult,
  top: number,
  opts: PrintOptions = { colorLevel: 0, wide: false },
): string {
  const st = textStyle(opts)
  return [...headLines(r, st), '', ...r.partitions.flatMap((p) => [blockText(p, top, st), ''])].join('\n')
}

/**
 * `tsdump cleanup`'s text written as its partitions come: the head, then each partition's block as soon as it is
 * known (the same text as cleanupText), nothing kept of it
 */
export class CleanupTextStream {
  private readonly st: TextStyle

  constructor(
    private readonly out: PrinterOutput,
    private readonly opts: PrintOptions & { top: number },
  ) {
    this.st = textStyle(opts)
  }

  head(r: Omit<CleanupResult, 'partitions'>): void {
    this.out.stdout.write(headLines(r, this.st).join('\n') + '\n')
  }

  partition(p: CleanupPartition): void {
    // a blank line before each block, the head's too
    this.out.stdout.write('\n' + blockText(p, this.opts.top, this.st) + '\n')
  }

  end(): void {}
}
