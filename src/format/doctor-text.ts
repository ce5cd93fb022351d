// `tsdump doctor`'s text: the summary first, then each finding in the order of harm: what, where, how much, and
// what to do. A healthy input (notes at most) gets one short screen saying so and what was checked. 80 columns:
// prose is wrapped between words, commands between arguments with a shell continuation (` \`), so that they can
// still be pasted; --wide wraps nothing.
import { Chalk } from 'chalk'
import type {
  DoctorFigures,
  DoctorFinding,
  DoctorLocation,
  DoctorResult,
  DoctorSummary,
} from '../analysis/doctor/types.js'
import { TABLE_WIDTH } from './table.js'
import { isoTime } from './timestamp.js'
import { wrapWords } from './wrap.js'
import type { PrintOptions } from './print-options.js'
import type { PrinterOutput } from './printer.js'

export interface DoctorTextOptions {
  wide: boolean
  colorLevel: 0 | 1 | 2 | 3
}

/** what each analysis checks, for the healthy screen */
const CHECKS: Readonly<Record<string, string>> = {
  reconcile: 'reconcile: segments, indexes, snapshots; LEO, HW, LSO, read_committed',
  lso: "lso: what holds each last stable offset; hanging (find-hanging's rule)",
  transactions: 'transactions: across partitions, coordinator records, exactly-once',
  cleanup: 'cleanup: what the cleaner and retention do next, what blocks them',
  replicas: "replicas: the brokers' copies compared by Kafka's epoch rule",
  remote: 'remote: tiered segments: metadata, storage and local log joined',
}

const plural = (n: number, one: string, many = `${one}s`): string => `${n} ${n === 1 ? one : many}`

function size(bytes: number): string {
  if (bytes < 1024) return plural(bytes, 'byte')
  const units = ['KiB', 'MiB', 'GiB', 'TiB']
  let v = bytes / 1024
  let u = 0
  while (v >= 1024 && u < units.length - 1) {
    v /= 1024
    u++
  }
  return `${v.toFixed(1)}\u00a0${units[u]}`
}

/** the second, not the millisecond: a window and an age */
const instant = (t: bigint | number): string => isoTime(t).replace(/\.\d{3}Z$/, 'Z')

function summaryLines(s: DoctorSummary, wrap: (t: string, indent: string) => string[]): string[] {
  const named = s.brokers.map((b) => (b.name === null ? b.path : `broker ${b.name} (${b.path})`))
  const out = wrap(`tsdump doctor: ${named.join(', ')}`, '')
  const window =
    s.firstTimestamp === null || s.newestTimestamp === null
      ? 'no batch timestamps'
      : `data from ${instant(s.firstTimestamp)} to ${instant(s.newestTimestamp)}`
  out.push(
    ...wrap(
      `${plural(s.partitions, 'partition')}, ${plural(s.segments, 'segment')}, ${size(s.bytes)}; ${window}; ` +
        `ages at ${instant(s.nowMs)}${s.nowGiven ? ' (--now)' : ' (the clock)'}` +
        `${s.remoteStorage !== null ? `; remote storage ${s.remoteStorage}` : ''}`,
      '  ',
    ),
  )
  out.push(...wrap(`checked: ${s.checked.join(', ')}`, '  '))
  const counts = [plural(s.counts.error, 'error'), plural(s.counts.warning, 'warning'), `${s.counts.info} info`].join(
    ', ',
  )
  const ranks = s.ranks
    .filter((r) => r.count > 0)
    .map((r) => `${r.category}\u00a0${r.count}`)
    .join(', ')
  out.push(...wrap(`findings: ${counts}${ranks === '' ? '' : ` (${ranks})`}`, '  '))
  return out
}

function whereText(l: DoctorLocation): string {
  const parts: string[] = []
  if (l.broker !== null) parts.push(`broker ${l.broker}`)
  if (l.partition !== null) parts.push(l.partition)
  if (l.firstOffset !== null) {
    parts.push(
      l.lastOffset === null || l.lastOffset === l.firstOffset
        ? `offset ${l.firstOffset}`
        : l.lastOffset < l.firstOffset
          ? `no records (log start ${l.firstOffset})`
          : `offsets ${l.firstOffset}..${l.lastOffset}`,
    )
  }
  if (l.file !== null) parts.push(l.position !== null ? `${l.file} position ${l.position}` : l.file)
  return parts.join(', ')
}

function figuresText(g: DoctorFigures): string {
  const parts: string[] = []
  if (g.minutes !== undefined) parts.push(`open ${g.minutes}\u00a0min`)
  if (g.since !== undefined) parts.push(`since ${instant(g.since)}`)
  if (g.records !== undefined && g.records > 0) parts.push(`${plural(g.records, 'record')} in it`)
  if (g.recordsAcknowledged !== undefined)
    parts.push(`${g.recordsAcknowledged} of them acknowledged (below the copy's high watermark)`)
  if (g.recordsWaiting !== undefined) parts.push(`${g.recordsWaiting} waiting for read_committed consumers`)
  if (g.offsets !== undefined) parts.push(plural(Number(g.offsets), 'offset'))
  return parts.join(', ')
}

/** a command cut between its arguments, each cut a shell continuation */
export function wrapCommand(cmd: string, indent: string, width = TABLE_WIDTH): string[] {
  const lines: string[] = []
  let line = ''
  const more = ' '.repeat(indent.length + 4)
  for (const word of cmd.split(' ')) {
    const lead = lines.length === 0 ? indent : more
    if (line !== '' && lead.length + line.length + 1 + word.length + 2 > width) {
      lines.push(`${lead}${line} \\`)
      line = word
    } else {
      line = line === '' ? word : `${line} ${word}`
    }
  }
  lines.push(`${lines.length === 0 ? indent : more}${line}`)
  return lines
}

function findingLines(
  f: DoctorFinding,
  n: number,
  opts: DoctorTextOptions,
  chalk: InstanceType<typeof Chalk>,
  wrap: (t: string, indent: string) => string[],
): string[] {
  const paint = f.severity === 'error' ? chalk.red : f.severity === 'warning' ? chalk.yellow : chalk.dim
  const out = [`${n}. ${paint(f.severity)} ${f.code} (${f.category})`]
  out.push(...wrap(f.message, '   '))
  const where = whereText(f.location)
  if (where !== '') out.push(...wrap(`where: ${where}`, '   '))
  const figures = figuresText(f.figures)
  if (figures !== '') out.push(...wrap(`how much: ${figures}`, '   '))
  const command = (label: string, c: string): string[] => {
    return opts.wide ? [`   ${label} ${c}`] : wrapCommand(c, `   ${label} `)
  }
  for (const c of f.remedy.fix) out.push(...command('fix:', c))
  for (const c of f.remedy.look) out.push(...command('look:', c))
  return out
}

export function doctorText(r: DoctorResult, opts: DoctorTextOptions): string {
  const chalk = new Chalk({ level: opts.colorLevel })
  const wrap = (t: string, indent: string): string[] =>
    opts.wide ? [indent + t.replaceAll('\u00a0', ' ')] : wrapWords(t, indent)
  const lines = summaryLines(r.summary, wrap)
  for (const u of r.unusable) lines.push(...wrap(`not read: ${u.file ?? ''}: ${u.message} [${u.code}]`, '  '))
  const problems = r.findings.filter((f) => f.severity !== 'info')
  if (problems.length === 0 && r.unusable.length === 0) {
    lines.push(
      '',
      ...wrap('Healthy: nothing lost, no consumer stuck, no damage, nothing blocks the cleaner or retention.', '').map(
        (l) => chalk.green(l),
      ),
    )
    lines.push('What was checked:')
    for (const c of r.summary.checked) lines.push(...wrap(CHECKS[c] ?? c, '  '))
    lines.push(...notesLines(r.findings, wrap))
    return lines.join('\n') + '\n'
  }
  problems.forEach((f, i) => {
    lines.push('', ...findingLines(f, i + 1, opts, chalk, wrap))
  })
  const notes = notesLines(r.findings, wrap)
  if (notes.length > 0) lines.push('', ...notes)
  return lines.join('\n') + '\n'
}

/** the info findings, one entry per code (--json lists each): how many, where, and the first one's words */
function notesLines(findings: readonly DoctorFinding[], wrap: (t: string, indent: string) => string[]): string[] {
  const notes = new Map<string, DoctorFinding[]>()
  for (const f of findings) if (f.severity === 'info') notes.set(f.code, [...(notes.get(f.code) ?? []), f])
  if (notes.size === 0) return []
  const out = ['Notes (info, --json lists each):']
  for (const [code, fs] of notes) {
    const where = [...new Set(fs.map((f) => f.location.partition).filter((p) => p !== null))]
    const at =
      where.length === 0
        ? ''
        : ` (${where.length > 4 ? `${where.slice(0, 4).join(', ')} and ${where.length - 4} more` : where.join(', ')})`
    out.push(...wrap(`${code} ${fs.length}x${at}: ${fs[0]!.message}`, '  '))
  }
  return out
}

/** `tsdump doctor`'s text, in the printers' one shape (format/print-options.ts) */
export function printDoctorText(r: DoctorResult, out: PrinterOutput, opts: PrintOptions): void {
  out.stdout.write(doctorText(r, opts))
}
