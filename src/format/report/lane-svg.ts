// One partition's timeline lane as inline SVG. x is an offset (or, after the page's axis switch, a
// timestamp): every drawn element carries its extent on both axes (data-o0/o1, data-t0/t1) and the
// client script recomputes x and width from them with the same formula used here for the first paint.
// Overlapping bars (interleaved transactions of different producers) are packed into rows.
import { isoTime } from '../timestamp.js'
import { attrs, esc } from './escape.js'
import type { Bucket, ControlTick, Int64, LaneItem, PartitionModel, PlainBar, TxnBar, TxnBarMarker } from './model.js'

/** lane width in SVG units (the viewBox scales it to the page) */
export const LANE_WIDTH = 1000
const TICK_TOP = 14
const ROW_TOP = 28
const ROW_HEIGHT = 24
const TICK_WIDTH = 4
/** room under the lane for the LSO/HW labels */
const LABEL_STRIP = 14
/** a bar at least this wide (of LANE_WIDTH) gets a text label */
const LABEL_WIDTH = 90
const MAX_ROWS = 6
const MIN_WIDTH = 2
const OPEN_MIN_WIDTH = 6
/** above this many marker ticks their C/A letters would overlap */
const MAX_LETTERS = 80

export interface TimeRange {
  min: number
  max: number
}

interface Domain {
  omin: number
  omax: number
  tmin: number | null
  tmax: number | null
}

function num(v: Int64 | null | undefined): number | null {
  return v === null || v === undefined ? null : Number(v)
}

function xOf(v: number, min: number, max: number): number {
  const span = max - min > 0 ? max - min : 1
  return Math.max(0, Math.min(LANE_WIDTH, ((v - min) / span) * LANE_WIDTH))
}

function fmt(v: number): string {
  return String(Math.round(v * 100) / 100)
}

/** x/width attributes for [o0, o1) on the offset axis plus both extents as data attributes */
function geometry(
  d: Domain,
  o0: number,
  o1: number,
  t0: number | null,
  t1: number | null,
  minWidth = MIN_WIDTH,
): Record<string, string | number | null> {
  const x0 = xOf(o0, d.omin, d.omax)
  const x1 = xOf(o1, d.omin, d.omax)
  return {
    x: fmt(x0),
    width: fmt(Math.max(minWidth, x1 - x0)),
    'data-o0': o0,
    'data-o1': o1,
    'data-t0': t0,
    'data-t1': t1,
    'data-mw': minWidth,
  }
}

function timeText(v: Int64 | null): string {
  return v === null ? 'unknown' : `${v} (${isoTime(Number(v))})`
}

export function txnTitle(t: TxnBar): string {
  const state = t.awaitingHighWatermark === true ? ', marker not below the HW yet' : ''
  return (
    `${t.outcome} transaction${state}: producerId ${t.producerId} epoch ${t.producerEpoch}, offsets ${t.firstOffset}..${t.lastDataOffset ?? '?'}` +
    `, ${t.records} records${t.batches !== null ? ` in ${t.batches} batches` : ''}` +
    (t.marker !== null ? `, ${t.marker.type} marker at ${t.marker.offset}` : '') +
    (t.coordinatorEpoch !== null ? ` (coordinatorEpoch ${t.coordinatorEpoch})` : '') +
    `; first timestamp ${timeText(t.firstTimestamp)}, last timestamp ${timeText(t.lastTimestamp)}` +
    (t.seeded ? '; opened before the log start (producer snapshot)' : '')
  )
}

export function plainTitle(p: PlainBar): string {
  return (
    `non-transactional: producerId ${p.producerId} epoch ${p.producerEpoch}, offsets ${p.firstOffset}..${p.lastOffset}, ${p.records} records in ${p.batches} batches` +
    `; first timestamp ${timeText(p.firstTimestamp)}, last timestamp ${timeText(p.lastTimestamp)}`
  )
}

export function bucketTitle(b: Bucket): string {
  return (
    `offsets ${b.firstOffset}..${b.lastOffset}: ${b.committed} committed transactions (${b.committedRecords} records), ${b.aborted} aborted (${b.abortedRecords} records), ` +
    `${b.plainRecords} non-transactional records, markers COMMIT ${b.commitMarkers} ABORT ${b.abortMarkers}` +
    (b.otherControl > 0 ? `, ${b.otherControl} other control batches` : '') +
    (b.minTimestamp !== null
      ? `; timestamps ${isoTime(b.minTimestamp)} .. ${isoTime(b.maxTimestamp ?? b.minTimestamp)}`
      : '')
  )
}

function barExtent(it: TxnBar | PlainBar): [number, number] {
  const first = Number(it.firstOffset)
  const last = num(it.kind === 'txn' ? it.lastDataOffset : it.lastOffset) ?? first
  return [first, last + 1]
}

/** greedy packing: each bar goes into the first row whose last bar ended before it starts */
function packRows(bars: ReadonlyArray<TxnBar | PlainBar>): number[] {
  const ends: number[] = []
  return bars.map((b) => {
    const [s, e] = barExtent(b)
    let r = ends.findIndex((end) => end <= s)
    if (r < 0) r = ends.length < MAX_ROWS ? ends.length : MAX_ROWS - 1
    ends[r] = Math.max(ends[r] ?? e, e)
    return r
  })
}

function txnRect(d: Domain, t: TxnBar, row: number, blockingKey: string | null): string {
  const [o0, o1] = barExtent(t)
  const blocking = blockingKey !== null && blockingKey === `${t.producerId}:${t.firstOffset}`
  const cls = `bar txn ${t.outcome}${blocking ? ' blocking' : ''}`
  return (
    `<rect${attrs({
      class: cls,
      y: ROW_TOP + row * ROW_HEIGHT,
      height: ROW_HEIGHT - 4,
      // open transactions stay visible in a lane of millions of offsets
      ...geometry(
        d,
        Math.max(o0, d.omin),
        o1,
        num(t.firstTimestamp),
        num(t.lastTimestamp),
        t.marker === null || blocking ? OPEN_MIN_WIDTH : MIN_WIDTH,
      ),
      tabindex: 0,
      'data-kind': 'txn',
      'data-producer-id': t.producerId,
      'data-producer-epoch': t.producerEpoch,
      'data-first-offset': t.firstOffset,
      'data-last-data-offset': t.lastDataOffset,
      'data-records': t.records,
      'data-batches': t.batches,
      'data-outcome': t.outcome,
      'data-marker-offset': t.marker?.offset ?? null,
      'data-coordinator-epoch': t.coordinatorEpoch,
      'data-first-timestamp': t.firstTimestamp,
      'data-last-timestamp': t.lastTimestamp,
      'data-state': t.awaitingHighWatermark === true ? 'awaiting-high-watermark' : null,
      'data-seeded': t.seeded ? 'true' : null,
      'data-blocking': blocking ? 'true' : null,
    })}><title>${esc((blocking ? 'BLOCKS THE LSO — ' : '') + txnTitle(t))}</title></rect>` +
    barLabel(d, o0, o1, row, `${blocking ? 'BLOCKS LSO · ' : ''}${t.outcome} · pid ${t.producerId} · ${t.records} rec`)
  )
}

/** text inside a bar wide enough for it (offset axis only: the CSS hides labels on the time axis) */
function barLabel(d: Domain, o0: number, o1: number, row: number, text: string): string {
  const x0 = xOf(Math.max(o0, d.omin), d.omin, d.omax)
  const w = xOf(o1, d.omin, d.omax) - x0
  if (w < LABEL_WIDTH) return ''
  const chars = Math.floor((w - 8) / 6.2)
  const shown = text.length <= chars ? text : text.slice(0, Math.max(0, chars - 1)) + '…'
  return `<text${attrs({ class: 'bar-label', x: fmt(x0 + 4), y: ROW_TOP + row * ROW_HEIGHT + ROW_HEIGHT / 2 + 2, 'aria-hidden': 'true' })}>${esc(shown)}</text>`
}

function plainRect(d: Domain, p: PlainBar, row: number): string {
  const [o0, o1] = barExtent(p)
  return (
    `<rect${attrs({
      class: 'bar plain',
      y: ROW_TOP + row * ROW_HEIGHT + 3,
      height: ROW_HEIGHT - 10,
      ...geometry(d, o0, o1, num(p.firstTimestamp), num(p.lastTimestamp)),
      tabindex: 0,
      'data-kind': 'plain',
      'data-producer-id': p.producerId,
      'data-producer-epoch': p.producerEpoch,
      'data-first-offset': p.firstOffset,
      'data-last-offset': p.lastOffset,
      'data-records': p.records,
      'data-batches': p.batches,
      'data-first-timestamp': p.firstTimestamp,
      'data-last-timestamp': p.lastTimestamp,
    })}><title>${esc(plainTitle(p))}</title></rect>` +
    barLabel(d, o0, o1, row, `plain · ${p.producerId === -1 ? '' : `pid ${p.producerId} · `}${p.records} rec`)
  )
}

/** COMMIT/ABORT tick (plus its C/A letter when there is room): shape and letter, not colour alone */
function markerTick(d: Domain, t: TxnBar, m: TxnBarMarker, letters: boolean, bottom: number): string {
  const at = Number(m.offset) + 0.5
  const type = m.type
  const ts = num(t.lastTimestamp)
  const g = geometry(d, at, at, ts, ts, TICK_WIDTH)
  const tick = `<rect${attrs({
    class: `tick ${type.toLowerCase()}`,
    y: TICK_TOP,
    height: bottom - TICK_TOP,
    ...g,
    tabindex: 0,
    'data-kind': 'marker',
    'data-marker': type,
    'data-producer-id': t.producerId,
    'data-offset': m.offset,
    'data-coordinator-epoch': m.coordinatorEpoch,
    'data-empty': t.empty ? 'true' : null,
  })}><title>${esc(
    `${type} marker at ${m.offset}: producerId ${t.producerId} epoch ${m.producerEpoch}, coordinatorEpoch ${m.coordinatorEpoch ?? 'unknown'}` +
      (t.empty ? ' (no data: an empty transaction)' : ''),
  )}</title></rect>`
  if (!letters) return tick
  return (
    tick +
    `<text${attrs({ class: 'tick-letter', y: TICK_TOP - 3, x: g.x, 'data-o0': at, 'data-o1': at, 'data-t0': ts, 'data-t1': ts })}>${type[0]}</text>`
  )
}

function controlTick(d: Domain, c: ControlTick): string {
  const at = Number(c.offset) + 0.5
  const ts = num(c.timestamp)
  return `<rect${attrs({
    class: 'tick control',
    y: TICK_TOP + 4,
    height: ROW_TOP - TICK_TOP - 6,
    ...geometry(d, at, at, ts, ts, TICK_WIDTH),
    tabindex: 0,
    'data-kind': 'control',
    'data-control-type': c.typeName,
    'data-offset': c.offset,
    'data-producer-id': c.producerId,
  })}><title>${esc(`${c.typeName} control batch at ${c.offset}`)}</title></rect>`
}

/** a bucket as a column: committed, aborted and plain records stacked, heights by share of records */
function bucketColumn(d: Domain, b: Bucket, rows: number): string {
  const total = b.committedRecords + b.abortedRecords + b.plainRecords
  const height = rows * ROW_HEIGHT - 4
  const g = geometry(d, b.firstOffset, b.lastOffset + 1, b.minTimestamp, b.maxTimestamp, 1)
  // one <g> per bucket carries the counts and the title; its rects only geometry (the page stays small)
  let out = `<g${attrs({
    tabindex: 0,
    'data-kind': 'bucket',
    'data-first-offset': b.firstOffset,
    'data-last-offset': b.lastOffset,
    'data-committed': b.committed,
    'data-aborted': b.aborted,
    'data-committed-records': b.committedRecords,
    'data-aborted-records': b.abortedRecords,
    'data-plain-records': b.plainRecords,
    'data-commit-markers': b.commitMarkers,
    'data-abort-markers': b.abortMarkers,
    'data-min-timestamp': b.minTimestamp,
    'data-max-timestamp': b.maxTimestamp,
  })}><title>${esc(bucketTitle(b))}</title>`
  let y = ROW_TOP
  const parts: Array<[string, number]> = [
    ['committed', b.committedRecords],
    ['aborted', b.abortedRecords],
    ['plain', b.plainRecords],
  ]
  for (const [cls, n] of parts) {
    if (n === 0 || total === 0) continue
    const h = (n / total) * height
    out += `<rect${attrs({ class: `bucket ${cls}`, y: fmt(y), height: fmt(h), ...g })}/>`
    y += h
  }
  if (b.commitMarkers > 0) out += `<rect${attrs({ class: 'tick commit', y: TICK_TOP, height: 6, ...g })}/>`
  if (b.abortMarkers > 0) out += `<rect${attrs({ class: 'tick abort', y: TICK_TOP + 6, height: 6, ...g })}/>`
  return out + '</g>'
}

function vline(d: Domain, cls: string, label: string, offset: number, t: number | null, height: number): string {
  const x = fmt(xOf(offset, d.omin, d.omax))
  return (
    `<line${attrs({ class: `vline ${cls}`, x1: x, x2: x, y1: 0, y2: height, 'data-o0': offset, 'data-o1': offset, 'data-t0': t, 'data-t1': t })}><title>${esc(label)}</title></line>` +
    `<text${attrs({ class: `vlabel ${cls}`, x, y: height + LABEL_STRIP - 3, 'data-o0': offset, 'data-o1': offset, 'data-t0': t, 'data-t1': t })}>${esc(cls.toUpperCase())}</text>`
  )
}

/** the earliest and latest batch timestamp (≥ 0) drawn in the lane: its time axis; null without any */
export function laneTimeRange(p: PartitionModel): TimeRange | null {
  let min = Infinity
  let max = -Infinity
  const see = (v: Int64 | null | undefined): void => {
    const n = num(v)
    if (n === null || n < 0 || !Number.isFinite(n)) return
    if (n < min) min = n
    if (n > max) max = n
  }
  for (const it of p.items ?? []) {
    if (it.kind === 'control') see(it.timestamp)
    else {
      see(it.firstTimestamp)
      see(it.lastTimestamp)
    }
  }
  for (const b of p.buckets ?? []) {
    see(b.minTimestamp)
    see(b.maxTimestamp)
  }
  for (const t of p.open) {
    see(t.firstTimestamp)
    see(t.lastTimestamp)
  }
  if (min === Infinity) return null
  return { min, max: max > min ? max : min + 1 }
}

/** The lane's <svg>: bars, ticks, LSO and HW lines, with the machine hooks on the root element. */
export function renderLane(p: PartitionModel): string {
  const time = laneTimeRange(p)
  const omin = Number(p.logStartOffset)
  const omax = Math.max(Number(p.logEndOffset), Number(p.highWatermark), omin + 1)
  const d: Domain = { omin, omax, tmin: time?.min ?? null, tmax: time?.max ?? null }
  const blockingKey = p.blocking === null ? null : `${p.blocking.producerId}:${p.blocking.firstOffset}`
  const items: LaneItem[] = p.items ?? []
  const seen = new Set(
    items.filter((i): i is TxnBar => i.kind === 'txn').map((t) => `${t.producerId}:${t.firstOffset}`),
  )
  const bars: Array<TxnBar | PlainBar> = items.filter(
    (i): i is TxnBar | PlainBar => i.kind === 'plain' || (i.kind === 'txn' && !i.empty),
  )
  for (const t of p.open) if (!seen.has(`${t.producerId}:${t.firstOffset}`)) bars.push(t)
  bars.sort((a, b) => Number(a.firstOffset) - Number(b.firstOffset))
  const rowOf = packRows(bars)
  const rows = Math.max(p.buckets !== null ? 2 : 1, ...rowOf.map((r) => r + 1))
  const height = ROW_TOP + rows * ROW_HEIGHT + 2
  let body = ''
  if (p.buckets !== null) for (const b of p.buckets) body += bucketColumn(d, b, rows)
  bars.forEach((b, i) => {
    body += b.kind === 'txn' ? txnRect(d, b, rowOf[i]!, blockingKey) : plainRect(d, b, rowOf[i]!)
  })
  const markers = items.filter((i): i is TxnBar & { marker: TxnBarMarker } => i.kind === 'txn' && i.marker !== null)
  const letters = markers.length <= MAX_LETTERS
  for (const t of markers) body += markerTick(d, t, t.marker, letters, ROW_TOP + ROW_HEIGHT - 4)
  for (const c of items) if (c.kind === 'control') body += controlTick(d, c)
  const tEnd = time?.max ?? null
  const lsoTime = p.blocking !== null ? num(p.blocking.firstTimestamp) : tEnd
  body += vline(d, 'lso', `LSO ${p.lastStableOffset}`, Number(p.lastStableOffset), lsoTime, height)
  body += vline(d, 'hw', `HW ${p.highWatermark} (${p.highWatermarkSource})`, Number(p.highWatermark), tEnd, height)
  const label =
    `${p.id}: offsets ${p.logStartOffset} to ${p.logEndOffset}, HW ${p.highWatermark}, LSO ${p.lastStableOffset}; read_committed ${p.readCommitted}, ` +
    `read_uncommitted ${p.readUncommitted}; transactions committed ${p.transactions.committed}, aborted ${p.transactions.aborted}, open ${p.transactions.open}` +
    (p.buckets !== null ? `; aggregated into ${p.buckets.length} offset ranges` : '')
  return `<svg${attrs({
    class: 'lane',
    viewBox: `0 0 ${LANE_WIDTH} ${height + LABEL_STRIP}`,
    role: 'img',
    'aria-label': label,
    'data-partition': p.id,
    'data-hw': p.highWatermark,
    'data-lso': p.lastStableOffset,
    'data-read-committed': p.readCommitted,
    'data-read-uncommitted': p.readUncommitted,
    'data-log-start-offset': p.logStartOffset,
    'data-log-end-offset': p.logEndOffset,
    'data-aggregated': p.buckets !== null ? 'true' : 'false',
    'data-omin': omin,
    'data-omax': omax,
    'data-tmin': d.tmin,
    'data-tmax': d.tmax,
  })}><title>${esc(label)}</title>${body}</svg>`
}
