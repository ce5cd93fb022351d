// `tsdump replicas` as text within 80 columns: per partition the copies side by side (log start, log end,
// HW, LSO, epochs, where each diverges), then what each diverging copy holds past that point, then findings.
import type { PartitionComparison, ReplicaComparison } from '../analysis/replicas/compare.js'
import type { ReplicaBatch } from '../analysis/replicas/replica-input.js'
import { formatFinding } from './finding-text.js'
import { wrapWords } from './wrap.js'
import type { PrintOptions, TextStyle } from './print-options.js'
import { paintSeverity, textStyle } from './print-options.js'
import type { PrinterOutput } from './printer.js'

/** batches listed per copy in the text; --json lists up to BATCHES_LISTED */
const BATCHES_SHOWN = 20
/** epoch cache entries shown per copy (the newest); --json lists all */
const EPOCHS_SHOWN = 3

function epochs(r: ReplicaComparison, n: number): string {
  const c = r.epochCache
  const e: string[] = []
  for (let i = Math.max(0, c.length - n); i < c.length; i++) {
    const x = c.at(i)!
    e.push(`${x.epoch}@${x.startOffset}`)
  }
  const shown = c.length > n ? ['…', ...e] : e
  return (shown.join(' ') || '-') + (r.epochCacheFrom === 'batches' ? ' (b)' : '')
}

/** a broker named by a long directory name keeps the table within 80 columns */
const BROKER_CELL = 16
const cell = (s: string, st: TextStyle): string =>
  s.length > BROKER_CELL && Number.isFinite(st.width) ? s.slice(0, BROKER_CELL - 1) + '…' : s

function table(rows: string[][], rightAligned: readonly boolean[]): string[] {
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)))
  return rows.map(
    (r) =>
      '  ' +
      r
        .map((c, i) => (rightAligned[i] === true ? c.padStart(widths[i]!) : c.padEnd(widths[i]!)))
        .join('  ')
        .trimEnd(),
  )
}

function what(b: ReplicaBatch): string {
  if (b.isControl) return `${b.marker ?? 'control'} marker, producer ${b.producerId} epoch ${b.producerEpoch}`
  const n = `${b.count} record${b.count === 1 ? '' : 's'}`
  const who = b.isTransactional
    ? `txn of producer ${b.producerId} epoch ${b.producerEpoch}`
    : b.producerId >= 0n
      ? `producer ${b.producerId} epoch ${b.producerEpoch}`
      : 'no producer id'
  const keys =
    b.records === undefined
      ? ''
      : b.records.some((r) => r.key !== null)
        ? `, keys ${b.records.map((r) => r.key ?? 'null').join(' ')}`
        : ', no keys'
  return `${n}, ${who}${keys}`
}

function offsets(b: ReplicaBatch): string {
  return b.baseOffset === b.lastOffset ? `${b.baseOffset}` : `${b.baseOffset}..${b.lastOffset}`
}

function pastDivergence(r: ReplicaComparison, st: TextStyle): string[] {
  const out: string[] = []
  const below = r.recordsPastDivergenceBelowHighWatermark
  out.push(
    ...wrapWords(
      `broker ${r.broker} from offset ${r.divergenceOffset}: ${r.recordsPastDivergence} records the leader does not have${below > 0 ? `, ${below} below its HW ${r.highWatermark}` : ''}`,
      '  ',
      st.width,
    ),
  )
  const shown = r.batchesPastDivergence.slice(0, BATCHES_SHOWN)
  const w = Math.max(...shown.map((b) => offsets(b).length))
  for (const b of shown) {
    const lines = wrapWords(what(b), ' '.repeat(6 + w), st.width)
    out.push(`    ${offsets(b).padEnd(w)}  ${lines[0]!.trimStart()}`, ...lines.slice(1))
  }
  const more = r.batchesPastDivergenceCount - shown.length
  const listed = r.batchesPastDivergence.length
  if (more > 0)
    out.push(
      `    … ${more} more batches (${listed === r.batchesPastDivergenceCount ? '--json lists them' : `--json lists the first ${listed}`})`,
    )
  return out
}

/** columns of the offset axis */
const AXIS_WIDTH = 56

/**
 * The copies on one offset axis: `=` offsets a copy holds that agree with the leader, `x` those past its divergence
 * point, blank what it does not hold; `^` marks each divergence point. One column is one offset, or a range of them.
 */
function offsetAxis(p: PartitionComparison, st: TextStyle): string[] {
  const from = p.replicas.reduce((m, r) => (r.logStartOffset < m ? r.logStartOffset : m), p.replicas[0]!.logStartOffset)
  const to = p.replicas.reduce((m, r) => (r.logEndOffset > m ? r.logEndOffset : m), p.replicas[0]!.logEndOffset)
  const span = to - from
  if (span <= 0n) return []
  const per = (span + BigInt(AXIS_WIDTH) - 1n) / BigInt(AXIS_WIDTH)
  const cols = Number((span + per - 1n) / per)
  const names = p.replicas.map((r) => cell(r.broker, st) + (r.isLeader ? ' *' : ''))
  const w = Math.max(...names.map((n) => n.length))
  const col = (o: bigint): number => Number((o - from) / per)
  const out = wrapWords(
    `offsets ${from}..${to - 1n}, ${per} per column: = as on the leader, x past the divergence point`,
    '  ',
    st.width,
  )
  const points = new Set<number>()
  p.replicas.forEach((r, i) => {
    const row = Array.from({ length: cols }, () => ' ')
    const diverges = r.divergenceOffset
    if (diverges !== null) points.add(col(diverges))
    for (let c = 0; c < cols; c++) {
      const lo = from + BigInt(c) * per
      const hi = lo + per // [lo, hi)
      if (hi <= r.logStartOffset || lo >= r.logEndOffset) continue
      row[c] = diverges !== null && hi > diverges ? 'x' : '='
    }
    out.push(`  ${names[i]!.padEnd(w)}  ${row.join('').trimEnd()}`)
  })
  const marks = Array.from({ length: cols }, (_, c) => (points.has(c) ? '^' : ' '))
    .join('')
    .trimEnd()
  const at = [...new Set(p.replicas.map((r) => r.divergenceOffset).filter((o): o is bigint => o !== null))].sort(
    (a, b) => (a < b ? -1 : 1),
  )
  out.push(`  ${' '.repeat(w)}  ${marks} at ${at.join(', ')}`)
  return out
}

function partitionText(p: PartitionComparison, st: TextStyle): string[] {
  const out: string[] = []
  const ids = [...new Set(p.replicas.map((r) => r.topicId).filter((x) => x !== null))]
  const leader = p.replicas.find((r) => r.isLeader)!
  const head = wrapWords(
    `${p.topic}-${p.partition}: leader broker ${leader.broker} (epoch ${leader.leaderEpoch ?? '-'}), topic id ${ids.join(' ') || 'unknown'}`,
    '',
    st.width,
  )
  out.push(
    ...head.map((l, i) =>
      i === 0 ? l.replace(`${p.topic}-${p.partition}`, st.chalk.bold(`${p.topic}-${p.partition}`)) : l,
    ),
  )
  const rowsWith = (n: number): string[] => {
    const rows = [['BROKER', 'START', 'END', 'HW', 'LSO', 'EPOCH CACHE', 'DIVERGES']]
    for (const r of p.replicas) {
      rows.push([
        cell(r.broker, st) + (r.isLeader ? ' *' : ''),
        String(r.logStartOffset),
        String(r.logEndOffset),
        r.highWatermark === null ? '-' : String(r.highWatermark),
        String(r.lastStableOffset),
        epochs(r, n),
        r.isLeader ? 'leader' : r.divergenceOffset === null ? 'no' : `at ${r.divergenceOffset}`,
      ])
    }
    return table(rows, [false, true, true, true, true, false, false])
  }
  // large offsets leave room for the newest epoch only
  let lines = rowsWith(EPOCHS_SHOWN)
  if (lines.some((l) => l.length > st.width)) lines = rowsWith(1)
  out.push(...lines)
  if (p.replicas.some((r) => r.divergenceOffset !== null)) out.push(...offsetAxis(p, st))
  for (const r of p.replicas) if (r.divergenceOffset !== null) out.push(...pastDivergence(r, st))
  for (const f of p.findings) {
    const lines = wrapWords(formatFinding(f).replace(/^tsdump: /, ''), '      ', st.width)
    // coloured after the cut, so that the colour's escapes do not count as columns
    const first = lines[0]!.trimStart()
    out.push(
      '  ' +
        (first.startsWith(f.severity)
          ? paintSeverity(st.chalk, f.severity, f.severity) + first.slice(f.severity.length)
          : first),
      ...lines.slice(1),
    )
  }
  return out
}

export function replicasText(
  logDirs: ReadonlyArray<{ path: string; broker: string }>,
  partitions: readonly PartitionComparison[],
  opts: PrintOptions = { colorLevel: 0, wide: false },
): string {
  const st = textStyle(opts)
  const out: string[] = []
  for (const d of logDirs) out.push(...wrapWords(`broker ${d.broker}: ${d.path}`, '', st.width))
  out.push('')
  const compared = partitions.filter((p) => p.compared)
  for (const p of compared) out.push(...partitionText(p, st), '')
  const single = partitions.filter((p) => !p.compared)
  if (single.length > 0)
    out.push(
      ...wrapWords(
        `on one broker only, not compared: ${single.map((p) => `${p.topic}-${p.partition} (${p.replicas[0]!.broker})`).join(', ')}`,
        '',
        st.width,
      ),
      '',
    )
  const diverged = compared.filter((p) => p.replicas.some((r) => r.divergenceOffset !== null))
  const damaged = compared.filter((p) => p.findings.some((f) => f.code === 'REPLICA_COPY_DAMAGED'))
  const damage =
    damaged.length === 0
      ? ''
      : `; ${damaged.length} with a damaged copy (${damaged.map((p) => `${p.topic}-${p.partition}`).join(', ')}: REPLICA_COPY_DAMAGED)`
  out.push(
    ...wrapWords(
      `${compared.length} partitions compared: ${diverged.length === 0 && damaged.length === 0 ? 'every copy agrees with its leader' : diverged.length === 0 ? 'no copy diverges' : `${diverged.length} with copies that diverge (${diverged.map((p) => `${p.topic}-${p.partition}`).join(', ')})`}${damage}. * = the leader (the newest epoch, then the longest log); (b) = epochs from the batches (no usable leader-epoch-checkpoint).`,
      '',
      st.width,
    ),
  )
  return out.join('\n') + '\n'
}

/** `tsdump replicas`' text, in the printers' one shape (format/print-options.ts) */
export function printReplicasText(
  r: { logDirs: ReadonlyArray<{ path: string; broker: string }>; partitions: readonly PartitionComparison[] },
  out: PrinterOutput,
  opts: PrintOptions,
): void {
  out.stdout.write(replicasText(r.logDirs, r.partitions, opts))
}
