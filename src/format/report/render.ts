// renderReport(model): the whole `tsdump report` page as one self-contained HTML string: doctor's ranked findings
// first, then the topics and each partition's lane, then a section per analysis doctor ran. Pure: no I/O,
// no clock, nothing loaded from anywhere (a Content-Security-Policy of default-src 'none' makes the
// browser refuse any fetch the page might try), so the file works from file:// with the network off.
import { REPORT_JS } from './client.js'
import { REPORT_CSS, REPORT_PATTERNS } from './css.js'
import type { CapabilityParts } from './doctor-html.js'
import { capabilityChunks, doctorSection } from './doctor-html.js'
import { attrs, esc } from './escape.js'
import { laneTimeRange, renderLane } from './lane-svg.js'
import type { DoctorModel, PartitionModel, ReportModel, TopicRow } from './model.js'
import {
  blockingCallout,
  findingRow,
  findingsChunks,
  laneTable,
  reconcileRow,
  reconcileTableHead,
  reconcileTableTail,
  topicsTable,
} from './tables.js'
import { isoTime } from '../timestamp.js'

const CSP = "default-src 'none'; style-src 'unsafe-inline'; script-src 'unsafe-inline'; img-src data:"

function swatch(cls: string, label: string): string {
  return `<span><svg viewBox="0 0 30 14" aria-hidden="true"><rect class="${cls}" x="1" y="1" width="28" height="12"/></svg>${label}</span>`
}

const LEGEND =
  '<div class="legend" aria-label="legend">' +
  swatch('sw-committed', 'committed (solid)') +
  swatch('sw-aborted', 'aborted (hatched)') +
  swatch('sw-open', 'open (dotted, dashed border)') +
  swatch('sw-unknown', 'outcome unknown: damage may hide it (white, dotted border)') +
  swatch('sw-plain', 'non-transactional (thin grey)') +
  '<span><b>C</b>/<b>A</b> ticks: COMMIT / ABORT markers</span><span><b>HW</b> solid line, <b>LSO</b> dashed line</span>' +
  '<span>thick black border: the transaction holding the LSO</span></div>'

function axisRow(p: PartitionModel): string {
  const time = laneTimeRange(p)
  const end = Math.max(Number(p.logEndOffset), Number(p.highWatermark))
  const t =
    time === null
      ? '<span class="ax-t">no timestamps</span>'
      : `<span class="ax-t">${esc(isoTime(time.min))}</span><span class="ax-t">batch timestamps</span><span class="ax-t">${esc(isoTime(time.max))}</span>`
  return (
    `<div class="axis" aria-hidden="true"><span class="ax-o">offset ${esc(p.logStartOffset)}</span><span class="ax-o">offsets</span>` +
    `<span class="ax-o">offset ${esc(end)}</span>${t}</div>`
  )
}

/** a partition's section: its lane, axis, blocking transaction and the lane as a table */
export function partitionSection(p: PartitionModel): string {
  const agg =
    p.buckets !== null
      ? `; ${p.batches} batches drawn as ${p.buckets.length} offset ranges${p.open.length > 0 ? ', open transactions one by one' : ''}`
      : ''
  return (
    `<section${attrs({ class: 'partition', id: `p-${p.id}` })}><h3>${esc(p.id)}</h3>` +
    `<p class="summary">offsets ${esc(p.logStartOffset)}..${esc(Number(p.logEndOffset) - 1)}, HW ${esc(p.highWatermark)} (${esc(p.highWatermarkSource)}), LSO ${esc(p.lastStableOffset)}; ` +
    `read_committed <b>${p.readCommitted}</b>, read_uncommitted <b>${p.readUncommitted}</b>; transactions: ${p.transactions.committed} committed, ` +
    `${p.transactions.aborted} aborted, ${p.transactions.open} open${p.transactions.empty > 0 ? `, ${p.transactions.empty} empty` : ''}${esc(agg)}. ` +
    `<span class="mono">${esc(p.path)}</span></p>` +
    renderLane(p) +
    axisRow(p) +
    blockingCallout(p) +
    laneTable(p) +
    '</section>'
  )
}

/** partitions grouped by topic, in the model's order; partitions without a topic last */
function groups(m: ReportModel): Array<{ topic: string | null; parts: PartitionModel[] }> {
  const out: Array<{ topic: string | null; parts: PartitionModel[] }> = []
  for (const p of m.partitions) {
    let g = out.find((x) => x.topic === p.topic)
    if (g === undefined) {
      g = { topic: p.topic, parts: [] }
      out.push(g)
    }
    g.parts.push(p)
  }
  return out.sort((a, b) => (a.topic === null ? 1 : 0) - (b.topic === null ? 1 : 0))
}

/** The report page. */
export function renderReport(m: ReportModel): string {
  return [...reportChunks(m)].join('')
}

/** one topic's partitions as the page draws them: its reconcile table's rows, then each partition's section */
export interface PageGroup {
  topic: string | null
  /** the reconcile table's row of each partition (reconcileRow), in order */
  rows: () => Iterable<string>
  /** each partition's section (partitionSection), in order */
  sections: () => Iterable<string>
}

/** what the page is drawn from, each long part as it is read (the command's run keeps no partition in memory) */
export interface PageParts {
  title: string
  generator: string
  inputs: string[]
  topics: TopicRow[]
  doctor?: DoctorModel | undefined
  groups: Iterable<PageGroup>
  capabilities?: CapabilityParts | undefined
  findings: { count: number; errors: number; rows: () => Iterable<string> }
}

/**
 * The report page in pieces, in order (`tsdump report` writes each as it comes: the page of 20,000 partitions is
 * 90 MB, and made whole it took the command to 770 MiB): a partition's section at a time
 */
export function reportChunks(m: ReportModel): Generator<string> {
  return pageChunks({
    title: m.title,
    generator: m.generator,
    inputs: m.inputs,
    topics: m.topics,
    doctor: m.doctor,
    groups: groups(m).map((g) => ({
      topic: g.topic,
      rows: () => g.parts.map(reconcileRow),
      sections: () => g.parts.map(partitionSection),
    })),
    capabilities: m.capabilities,
    findings: {
      count: m.findings.length,
      errors: m.findings.filter((f) => f.severity === 'error').length,
      rows: () => m.findings.map(findingRow),
    },
  })
}

/** the page's pieces from its parts: no piece holds more than one partition's section or a table's row */
export function* pageChunks(m: PageParts): Generator<string> {
  const nErrors = m.findings.errors
  yield '<!DOCTYPE html>\n<html lang="en"><head><meta charset="utf-8">' +
    `<meta http-equiv="Content-Security-Policy" content="${CSP}">` +
    '<meta name="viewport" content="width=device-width, initial-scale=1">' +
    `<title>${esc(m.title)}</title><style>${REPORT_CSS}</style></head><body>` +
    REPORT_PATTERNS +
    `<header><h1>${esc(m.title)}</h1><p class="meta">${esc(m.generator)} · inputs: ${m.inputs.map((i) => `<code>${esc(i)}</code>`).join(', ')}</p>` +
    '<div class="controls"><fieldset style="border:0;padding:0;margin:0"><legend class="sr-only">axis</legend>Axis: ' +
    '<label><input type="radio" name="axis" value="offset" checked> offsets</label> <label><input type="radio" name="axis" value="time"> time</label></fieldset>' +
    `${LEGEND}</div></header><main>${m.doctor !== undefined ? doctorSection(m.doctor) : ''}<section id="topics"><h2>Topics</h2>${topicsTable(m.topics)}</section>`
  for (const g of m.groups) {
    const total = g.topic === null ? null : (m.topics.find((t) => t.topic === g.topic) ?? null)
    yield `<section${attrs({ class: 'topic', 'data-topic': g.topic })}><h2>${g.topic === null ? 'Files without a topic-partition directory' : `Topic ${esc(g.topic)}`}</h2>` +
      reconcileTableHead()
    yield* batched(g.rows())
    yield reconcileTableTail(total)
    yield* g.sections()
    yield '</section>'
  }
  if (m.capabilities !== undefined) yield* batched(capabilityChunks(m.capabilities))
  yield `<section id="findings"><h2>Findings (${m.findings.count}${nErrors > 0 ? `, ${nErrors} errors` : ''})</h2>`
  yield* batched(findingsChunks(m.findings.count, m.findings.rows()))
  yield `</section></main><div id="detail" role="status" aria-live="polite" hidden></div><script>${REPORT_JS}</script></body></html>\n`
}

/** a piece at least this long is handed on; short rows are joined up to it (one write each) */
const PIECE = 64 * 1024

/** small pieces joined into pieces of about PIECE characters */
function* batched(pieces: Iterable<string>): Generator<string> {
  let out = ''
  for (const p of pieces) {
    out += p
    if (out.length >= PIECE) {
      yield out
      out = ''
    }
  }
  if (out !== '') yield out
}
