// `tsdump doctor`'s text: the summary first, then each finding in the order of harm: what, where, how much, and
// what to do. A healthy input (notes at most) gets one short screen saying so and what was checked. 80 columns:
// prose is wrapped between words, commands between arguments with a shell continuation (` \`), so that they can
// still be pasted; --wide wraps nothing. A code with many findings (collect.ts' groups) is one entry: its count, its
// first examples' places and the command that lists them all.
import { Chalk } from 'chalk'
import type { DoctorEntry } from '../analysis/doctor/collect.js'
import { rankedEntries } from '../analysis/doctor/collect.js'
import type {
  DoctorFigures,
  DoctorFinding,
  DoctorGroup,
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

/** the summary's lines (the report's page shows the same) */
export function summaryLines(s: DoctorSummary, wrap: (t: string, indent: string) => string[]): string[] {
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

/** where a finding is, in words */
export function whereText(l: DoctorLocation): string {
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

/** how much and since when, in words */
export function figuresText(g: DoctorFigures): string {
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

/** a group: its count, the first one's words, the first examples' places, the command that lists them all */
function groupLines(
  g: DoctorGroup,
  n: number,
  opts: DoctorTextOptions,
  chalk: InstanceType<typeof Chalk>,
  wrap: (t: string, indent: string) => string[],
): string[] {
  const paint = g.severity === 'error' ? chalk.red : g.severity === 'warning' ? chalk.yellow : chalk.dim
  const on = g.broker === null ? '' : ` on broker ${g.broker}`
  const out = [`${n}. ${paint(g.severity)} ${g.code} (${g.category})`]
  out.push(
    ...wrap(
      `${g.count} of them${on}, in ${plural(g.partitions, 'partition')}; the first: ${g.examples[0]!.message}`,
      '   ',
    ),
  )
  out.push(...wrap(`where (the first ${g.examples.length}):`, '   '))
  for (const e of g.examples) {
    const w = wrap(whereText(e.location), '     ')
    out.push(...w.map((l, i) => (i === 0 ? `   - ${l.slice(5)}` : l)))
  }
  for (const c of g.remedy.look) out.push(...(opts.wide ? [`   look: ${c}`] : wrapCommand(c, '   look: ')))
  return out
}

export function doctorText(r: DoctorResult, opts: DoctorTextOptions): string {
  const chalk = new Chalk({ level: opts.colorLevel })
  const wrap = (t: string, indent: string): string[] =>
    opts.wide ? [indent + t.replaceAll('\u00a0', ' ')] : wrapWords(t, indent)
  const lines = summaryLines(r.summary, wrap)
  for (const u of r.unusable) lines.push(...wrap(`not read: ${u.file ?? ''}: ${u.message} [${u.code}]`, '  '))
  const entries = rankedEntries(r)
  const severity = (e: DoctorEntry): string => (e.kind === 'finding' ? e.finding.severity : e.group.severity)
  const problems = entries.filter((e) => severity(e) !== 'info')
  const notes = notesLines(
    entries.filter((e) => severity(e) === 'info'),
    wrap,
  )
  if (problems.length === 0 && r.unusable.length === 0) {
    lines.push(
      '',
      ...wrap('Healthy: nothing lost, no consumer stuck, no damage, nothing blocks the cleaner or retention.', '').map(
        (l) => chalk.green(l),
      ),
    )
    lines.push('What was checked:')
    for (const c of r.summary.checked) lines.push(...wrap(CHECKS[c] ?? c, '  '))
    lines.push(...notes)
    return lines.join('\n') + '\n'
  }
  problems.forEach((e, i) => {
    lines.push(
      '',
      ...(e.kind === 'finding'
        ? findingLines(e.finding, i + 1, opts, chalk, wrap)
        : groupLines(e.group, i + 1, opts, chalk, wrap)),
    )
  })
  if (notes.length > 0) lines.push('', ...notes)
  return lines.join('\n') + '\n'
}

/** the info findings, one entry per code (--json lists each, or its group): how many, where, and the first one's words */
function notesLines(entries: readonly DoctorEntry[], wrap: (t: string, indent: string) => string[]): string[] {
  const notes = new Map<string, { count: number; partitions: string[]; more: number; first: DoctorFinding }>()
  for (const e of entries) {
    const fs = e.kind === 'finding' ? [e.finding] : e.group.examples
    const n = notes.get(fs[0]!.code) ?? { count: 0, partitions: [], more: 0, first: fs[0]! }
    n.count += e.kind === 'finding' ? 1 : e.group.count
    const mine = [...new Set(fs.map((f) => f.location.partition).filter((p) => p !== null))]
    for (const p of mine) if (!n.partitions.includes(p)) n.partitions.push(p)
    if (e.kind === 'group') n.more += Math.max(0, e.group.partitions - mine.length)
    notes.set(fs[0]!.code, n)
  }
  if (notes.size === 0) return []
  const out = ['Notes (info, --json lists each):']
  for (const [code, n] of notes) {
    const more = n.more + Math.max(0, n.partitions.length - 4)
    const at =
      n.partitions.length === 0
        ? ''
        : ` (${more > 0 ? `${n.partitions.slice(0, 4).join(', ')} and ${more} more` : n.partitions.join(', ')})`
    out.push(...wrap(`${code} ${n.count}x${at}: ${n.first.message}`, '  '))
  }
  return out
}

/** `tsdump doctor`'s text, in the printers' one shape (format/print-options.ts) */
export function printDoctorText(r: DoctorResult, out: PrinterOutput, opts: PrintOptions): void {
  out.stdout.write(doctorText(r, opts))
}
