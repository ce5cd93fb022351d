// The page's first section, doctor's picture (its summary and ranked findings, each row carrying its code, place,
// count and minutes as data-* hooks), and one section per analysis doctor ran, each drawn from that run: the
// transactions across partitions (each run a link to its partition's lane), cleanup's clean / dirty / uncleanable
// ranges, the brokers' copies of a partition on one offset axis, the remote segments beside the local log.
import { attrs, esc } from './escape.js'
import type {
  CapabilitiesModel,
  CleanupRow,
  DoctorModel,
  DoctorRow,
  Int64,
  ReplicaRow,
  TieredRow,
  TransactionsModel,
} from './model.js'

const n = (v: Int64 | null): number | null => (v === null ? null : Number(v))

function doctorRow(r: DoctorRow, i: number): string {
  const cmds = (label: string, cs: readonly string[]): string =>
    cs.map((c) => `<div class="cmd">${label} <code>${esc(c)}</code></div>`).join('')
  const examples =
    r.examples.length === 0 ? '' : `<ul class="examples">${r.examples.map((e) => `<li>${esc(e)}</li>`).join('')}</ul>`
  return (
    `<li${attrs({
      class: `dr sev-${r.severity}`,
      'data-kind': r.kind,
      'data-code': r.code,
      'data-severity': r.severity,
      'data-rank': r.rank,
      'data-count': r.count,
      'data-broker': r.broker,
      'data-partition': r.partition,
      'data-file': r.file,
      'data-position': r.position,
      'data-first-offset': r.firstOffset,
      'data-last-offset': r.lastOffset,
      'data-minutes': r.minutes,
    })}><b>${i + 1}. ${esc(r.severity)} <code>${esc(r.code)}</code></b> (${esc(r.category)})${r.kind === 'group' ? ` <b>×${r.count}</b>` : ''}` +
    `<div>${esc(r.message)}</div><div>where: ${esc(r.where)}</div>${examples}${r.figures === '' ? '' : `<div>how much: ${esc(r.figures)}</div>`}` +
    cmds('fix:', r.fix) +
    cmds('look:', r.look) +
    '</li>'
  )
}

/** doctor's summary and its ranked list, first on the page */
export function doctorSection(d: DoctorModel): string {
  const problems = d.rows.filter((r) => r.severity !== 'info').length
  const verdict =
    problems === 0
      ? '<p class="ok">Healthy: nothing lost, no consumer stuck, no damage, nothing blocks the cleaner or retention.</p>'
      : ''
  return (
    `<section${attrs({ id: 'doctor', 'data-now': d.nowMs, 'data-now-given': d.nowGiven })}><h2>Ranked by harm (tsdump doctor)</h2>` +
    `<pre class="doctor-summary">${d.summary.map(esc).join('\n')}</pre>${verdict}<ol class="doctor">${d.rows.map(doctorRow).join('')}</ol></section>`
  )
}

/** one offset axis: [from, to) bars of a row, scaled to the axis' end */
function axisSvg(
  end: number,
  bars: Array<{ from: number; to: number; cls: string; title: string }>,
  ticks: Array<{ at: number; label: string }> = [],
): string {
  const W = 600
  const x = (o: number): number => (end <= 0 ? 0 : Math.max(0, Math.min(W, (o / end) * W)))
  const rects = bars
    .filter((b) => b.to > b.from)
    .map(
      (b) =>
        `<rect class="${b.cls}" x="${x(b.from).toFixed(1)}" y="2" width="${Math.max(1, x(b.to) - x(b.from)).toFixed(1)}" height="14"><title>${esc(b.title)}</title></rect>`,
    )
  const lines = ticks.map(
    (t) =>
      `<line class="tick" x1="${x(t.at).toFixed(1)}" x2="${x(t.at).toFixed(1)}" y1="0" y2="18"><title>${esc(t.label)}</title></line>`,
  )
  return `<svg class="axis-bar" viewBox="0 0 ${W} 18" width="${W}" height="18" role="img" aria-label="${esc(bars.map((b) => b.title).join('; '))}">${rects.join('')}${lines.join('')}</svg>`
}

function transactionsSection(t: TransactionsModel): string {
  const outcomes = Object.entries(t.outcomes)
    .map(([o, c]) => `${c} ${o}`)
    .join(', ')
  const rows = t.shown
    .map(
      (x) =>
        `<tr${attrs({ 'data-producer-id': x.producerId, 'data-outcome': x.outcome })}><td class="l">${esc(x.transactionalId ?? '-')}</td>` +
        `<td>${esc(x.producerId)}</td><td>${x.producerEpoch}</td><td class="l">${esc(x.outcome)}</td><td class="l">` +
        x.runs
          .map(
            (r) =>
              `<a${attrs({ href: `#p-${r.partition}`, 'data-partition': r.partition })}>${esc(r.partition)} ${esc(r.firstOffset)}..${esc(r.lastDataOffset ?? '?')}</a>`,
          )
          .join(', ') +
        `</td><td class="l">${esc(x.codes.join(' '))}</td></tr>`,
    )
    .join('')
  const more =
    t.count > t.shown.length
      ? `<p>The first ${t.shown.length} listed; <code>tsdump transactions</code> lists all.</p>`
      : ''
  return (
    `<section id="transactions" data-count="${t.count}"><h2>Transactions across partitions (${t.count}${outcomes === '' ? '' : `: ${esc(outcomes)}`})</h2>` +
    `<table class="transactions"><thead><tr><th class="l">transactional id</th><th>producer id</th><th>epoch</th><th class="l">outcome</th><th class="l">runs (each a link to its lane)</th><th class="l">findings</th></tr></thead><tbody>${rows}</tbody></table>${more}</section>`
  )
}

function cleanupRow(c: CleanupRow): string {
  const [start, end] = [n(c.logStartOffset)!, n(c.logEndOffset)!]
  const dirty = n(c.firstDirtyOffset)
  const unclean = n(c.firstUncleanableOffset)
  const bars =
    dirty === null || unclean === null
      ? [{ from: start, to: end, cls: 'plain', title: `offsets ${start}..${end - 1} (${c.policy}: no compaction)` }]
      : [
          { from: start, to: dirty, cls: 'clean', title: `clean ${start}..${dirty - 1}` },
          { from: dirty, to: unclean, cls: 'dirty', title: `dirty ${dirty}..${unclean - 1}` },
          {
            from: unclean,
            to: end,
            cls: 'uncleanable',
            title: `uncleanable ${unclean}..${end - 1} (${c.uncleanableBecause ?? ''})`,
          },
        ]
  return (
    `<tr${attrs({ 'data-partition': c.partition, 'data-first-dirty': c.firstDirtyOffset, 'data-first-uncleanable': c.firstUncleanableOffset })}><td class="l">${esc(c.partition)}</td>` +
    `<td class="l">${esc(c.policy)}</td><td>${axisSvg(end, bars, [{ at: n(c.lastStableOffset)!, label: `LSO ${c.lastStableOffset}` }])}</td>` +
    `<td>${c.dirtyRatio === null ? '-' : c.dirtyRatio.toFixed(2)}</td><td>${c.retentionDeletes}</td><td class="l">${esc(c.blockedBy ?? '-')}</td></tr>`
  )
}

function replicaRow(r: ReplicaRow): string {
  const end = Math.max(...r.copies.map((c) => n(c.logEndOffset)!), 1)
  const rows = r.copies.map((c) => {
    const div = n(c.divergenceOffset)
    const [s, e] = [n(c.logStartOffset)!, n(c.logEndOffset)!]
    const bars =
      div === null
        ? [{ from: s, to: e, cls: 'clean', title: `broker ${c.broker}: ${s}..${e - 1}` }]
        : [
            { from: s, to: div, cls: 'clean', title: `broker ${c.broker}: ${s}..${div - 1}` },
            { from: div, to: e, cls: 'diverged', title: `diverged from ${div}` },
          ]
    const hw = n(c.highWatermark)
    return (
      `<tr${attrs({ 'data-partition': r.partition, 'data-broker': c.broker, 'data-divergence': c.divergenceOffset })}><td class="l">${esc(r.partition)}</td>` +
      `<td class="l">${esc(c.broker)}${c.isLeader ? ' (leader)' : ''}</td><td>${axisSvg(end, bars, hw === null ? [] : [{ at: hw, label: `HW ${hw}` }])}</td></tr>`
    )
  })
  return rows.join('')
}

function tieredRow(t: TieredRow): string {
  const ends = t.segments.map((s) => n(s.endOffset) ?? n(s.startOffset)!)
  const local = n(t.localStartOffset)
  const end = Math.max(1, ...ends.map((e) => e + 1), local ?? 0)
  const bars = t.segments.map((s) => ({
    from: n(s.startOffset)!,
    to: (n(s.endOffset) ?? n(s.startOffset)!) + 1,
    cls: s.verdict === 'ok' ? 'clean' : 'dirty',
    title: `remote ${s.startOffset}..${s.endOffset ?? '?'} ${s.state ?? ''} (${s.verdict})`,
  }))
  return (
    `<tr${attrs({ 'data-partition': t.partition, 'data-segments': t.segments.length })}><td class="l">${esc(t.partition)}</td><td>${esc(t.localStartOffset ?? '-')}</td>` +
    `<td>${axisSvg(end, bars, local === null ? [] : [{ at: local, label: `local log from ${local}` }])}</td><td class="l">${esc(
      t.segments
        .map((s) => s.verdict)
        .filter((v) => v !== 'ok')
        .join(' ') || 'ok',
    )}</td></tr>`
  )
}

const tableHead = (cls: string, head: readonly string[]): string =>
  `<table class="${cls}"><thead><tr>${head.map((h, i) => `<th${i < 2 ? ' class="l"' : ''}>${esc(h)}</th>`).join('')}</tr></thead><tbody>`
const table = (cls: string, head: readonly string[], body: string): string =>
  `${tableHead(cls, head)}${body}</tbody></table>`

/** one section per analysis doctor ran, after the partitions' lanes */
export function capabilitySections(c: CapabilitiesModel): string {
  return [...capabilityChunks({ ...c, cleanup: c.cleanup })].join('')
}

/** the sections' model with cleanup's rows as they are read back (one a partition: the page's run keeps none) */
export type CapabilityParts = Omit<CapabilitiesModel, 'cleanup'> & { cleanup: Iterable<CleanupRow> | null }

/** capabilitySections in pieces: cleanup's rows one at a time */
export function* capabilityChunks(c: CapabilityParts): Generator<string> {
  if (c.transactions !== null) yield transactionsSection(c.transactions)
  if (c.cleanup !== null) {
    yield `<section id="cleanup"><h2>Cleanup: clean, dirty and uncleanable ranges</h2>${tableHead('cleanup', ['partition', 'policy', 'offsets (LSO tick)', 'dirty ratio', 'segments retention deletes', 'cleaner blocked by'])}`
    for (const r of c.cleanup) yield cleanupRow(r)
    yield '</tbody></table></section>'
  }
  let out = ''
  if (c.replicas !== null)
    out += `<section id="replicas"><h2>Replicas on one offset axis</h2>${table('replicas', ['partition', 'broker', 'offsets (HW tick; diverged in red)'], c.replicas.map(replicaRow).join(''))}</section>`
  if (c.tiered !== null)
    out += `<section id="tiered"><h2>Tiered segments beside the local log</h2>${table('tiered', ['partition', 'local log start', 'remote segments (local start tick)', 'verdicts'], c.tiered.map(tieredRow).join(''))}</section>`
  if (out !== '') yield out
}
