// `tsdump report`: the adapter from what reconcile / lso compute to the ReportModel that
// format/report/render.ts draws. The scan is reconcile's (one streaming pass per partition); each
// partition's lane is collected on the way by a LaneCollector (bounded), the blocking transaction and
// its abort commands come from analysis/lso.ts, the numbers from the PartitionReport.
import { hasErrors } from '../analysis/findings.js'
import { abortCommands, findBlockingTransaction } from '../analysis/lso.js'
import type { OpenTransaction, PartitionReport } from '../analysis/reconcile.js'
import type { CliContext } from '../cli/context.js'
import type { BlockingModel, FindingRow, PartitionModel, ReportModel, TopicRow, TxnBar } from '../format/report/model.js'
import { renderReport } from '../format/report/render.js'
import { formatFinding } from '../format/finding-text.js'
import { jsonInt64, jsonInt64OrNull, topicTotals } from '../format/txn-json.js'
import type { PartitionDir } from '../io/discover.js'
import { isInputFile, writeOutputFile } from '../io/output-file.js'
import { describeFsError } from '../io/discover.js'
import type { LaneLimits } from './report-lane.js'
import { LaneCollector } from './report-lane.js'
import type { Reconciled } from './reconcile.js'
import { reconcilePaths } from './reconcile.js'

export interface ReportOptions {
  paths: string[]
  /** the HTML file to write; '-' = stdout */
  output: string
  bootstrapServer?: string
  maxTransactionTimeoutMinutes?: number
  title?: string
  generator?: string
  /** per-lane limits (tests make them small) */
  limits?: Partial<LaneLimits>
  /** items drawn one by one in the whole report; beyond it the largest lanes are aggregated */
  maxReportItems?: number
  /** buckets drawn in the whole report; the aggregated lanes share them */
  maxReportBuckets?: number
}

// Page size: measured 750 bytes of HTML per drawn item on the fixtures, up to 1.7 KB with 19-digit producer
// ids and 13-digit offsets (bar, title, marker tick, table row); a bucket up to ~0.6 KB. The budgets keep
// the worst case near 4 MB (issue #13: < 5 MB), plus ~3 KB of tables per partition.
const DEFAULT_LIMITS: LaneLimits = { maxItems: 1500, maxBuckets: 400 }
const MAX_REPORT_ITEMS = 1800
/** buckets drawn in the whole report, shared by the aggregated lanes */
const MAX_REPORT_BUCKETS = 2000
/** open transactions drawn one by one in an aggregated lane */
const MAX_OPEN_DRAWN = 200

function openBar (t: OpenTransaction, c: LaneCollector): TxnBar {
  const ended = t.state === 'awaiting-high-watermark' ? c.recentlyEnded(jsonInt64(t.producerId), jsonInt64(t.firstOffset)) : undefined
  if (ended !== undefined) return { ...ended, awaitingHighWatermark: true }
  return {
    kind: 'txn', producerId: jsonInt64(t.producerId), producerEpoch: t.producerEpoch, firstOffset: jsonInt64(t.firstOffset), lastOffset: jsonInt64OrNull(t.lastOffset),
    records: t.records, batches: null, firstTimestamp: jsonInt64OrNull(t.firstTimestamp), lastTimestamp: jsonInt64OrNull(t.lastTimestamp), outcome: 'open',
    markerOffset: null, markerEpoch: null, coordinatorEpoch: t.coordinatorEpoch, empty: false, seeded: t.seeded,
    ...(t.state === 'awaiting-high-watermark' ? { awaitingHighWatermark: true } : {}),
  }
}

function blockingModel (d: Reconciled, opts: ReportOptions): BlockingModel | null {
  const r = d.report
  const b = findBlockingTransaction(r, d.scanned.snapshots, (opts.maxTransactionTimeoutMinutes ?? 15) * 60_000)
  if (b === null) return null
  return {
    producerId: jsonInt64(b.producerId), producerEpoch: b.producerEpoch, coordinatorEpoch: b.coordinatorEpoch, coordinatorEpochSource: b.coordinatorEpochSource,
    firstOffset: jsonInt64(b.firstOffset), lastOffset: jsonInt64OrNull(b.lastOffset), records: b.records, recordsWaiting: b.recordsWaiting,
    firstTimestamp: jsonInt64OrNull(b.firstTimestamp), lastTimestamp: jsonInt64OrNull(b.lastTimestamp), ageMs: jsonInt64OrNull(b.ageMs), state: b.state,
    hanging: b.hanging, seeded: b.seeded,
    commands: b.state === 'open' ? abortCommands(opts.bootstrapServer ?? 'localhost:9092', r.topic, r.partition, b) : [],
  }
}

function partitionModel (d: Reconciled, c: LaneCollector, opts: ReportOptions, maxBuckets: number): PartitionModel {
  const r = d.report
  const lane = c.lane(maxBuckets)
  return {
    id: d.scanned.label, topic: r.topic, partition: r.partition, path: d.scanned.dir.path,
    logStartOffset: jsonInt64(r.logStartOffset), logEndOffset: jsonInt64(r.logEndOffset), highWatermark: jsonInt64(r.highWatermark),
    highWatermarkSource: r.highWatermarkSource, lastStableOffset: jsonInt64(r.lastStableOffset),
    readCommitted: r.readCommitted, readUncommitted: r.readUncommitted, abortedRecords: r.abortedRecords, pendingRecords: r.pendingRecords,
    batches: r.batches, controlBatches: { ...r.controlBatches }, transactions: { ...r.transactions },
    items: lane.items, buckets: lane.buckets, open: r.openTransactions.slice(0, MAX_OPEN_DRAWN).map((t) => openBar(t, c)), blocking: blockingModel(d, opts),
  }
}

function topicRows (reports: readonly PartitionReport[]): TopicRow[] {
  return topicTotals(reports).map((t) => {
    const rs = reports.filter((r) => r.topic === t.topic)
    const sum = (f: (r: PartitionReport) => number): number => rs.reduce((a, r) => a + f(r), 0)
    return { ...t, abortedRecords: sum((r) => r.abortedRecords), pendingRecords: sum((r) => r.pendingRecords), openTransactions: sum((r) => r.transactions.open) }
  })
}

function defaultTitle (parts: readonly PartitionModel[]): string {
  const names = [...new Set(parts.map((p) => p.topic ?? p.path))]
  return `tsdump report: ${names.slice(0, 4).join(', ')}${names.length > 4 ? ` and ${names.length - 4} more` : ''}`
}

/** Scan `paths` and build the report's model; 2 on unusable input. */
export function buildReportModel (opts: ReportOptions, ctx: CliContext): { model: ReportModel, done: Reconciled[] } | 2 {
  const limits: LaneLimits = { ...DEFAULT_LIMITS, ...opts.limits }
  const collectors = new Map<PartitionDir, LaneCollector>()
  const done = reconcilePaths(opts.paths, ctx, { sink: (dir) => { const c = new LaneCollector(limits); collectors.set(dir, c); return c } })
  if (done === 2) return 2
  const all = [...collectors.values()]
  // the report as a whole stays small: aggregate the lanes with the most items first
  const budget = opts.maxReportItems ?? MAX_REPORT_ITEMS
  let total = all.reduce((a, c) => a + c.itemCount(), 0)
  for (const c of [...all].sort((a, b) => b.itemCount() - a.itemCount())) {
    if (total <= budget) break
    total -= c.itemCount()
    c.aggregate()
  }
  const aggregated = all.filter((c) => c.itemCount() === 0 && c.aggregated()).length
  const perLane = Math.min(limits.maxBuckets, Math.max(25, Math.floor((opts.maxReportBuckets ?? MAX_REPORT_BUCKETS) / Math.max(1, aggregated))))
  const partitions = done.map((d) => partitionModel(d, collectors.get(d.scanned.dir)!, opts, perLane))
  const findings: FindingRow[] = done.flatMap((d) => d.report.findings.map((f) => ({ partition: d.scanned.label, ...f })))
  const model: ReportModel = {
    title: opts.title ?? defaultTitle(partitions), generator: opts.generator ?? 'tsdump', inputs: opts.paths,
    topics: topicRows(done.map((d) => d.report)), partitions, findings,
  }
  return { model, done }
}

export async function runReport (opts: ReportOptions, ctx: CliContext): Promise<number> {
  const built = buildReportModel(opts, ctx)
  if (built === 2) return 2
  const inputs = built.done.flatMap((d) => d.scanned.dir.files.map((f) => f.path))
  if (opts.output !== '-' && isInputFile(opts.output, inputs)) {
    ctx.stderr.write(`tsdump: ${opts.output}: is one of the files being read; tsdump never writes to its inputs\n`)
    return 2
  }
  const html = renderReport(built.model)
  if (opts.output === '-') {
    ctx.stdout.write(html)
  } else {
    try { writeOutputFile(opts.output, html) } catch (e) {
      ctx.stderr.write(`tsdump: ${opts.output}: cannot write the report: ${describeFsError(e)}\n`)
      return 2
    }
    const parts = built.model.partitions
    ctx.stderr.write(`tsdump: wrote ${opts.output} (${Buffer.byteLength(html)} bytes, ${parts.length} partition${parts.length === 1 ? '' : 's'}` +
      `${parts.some((p) => p.buckets !== null) ? ', some lanes aggregated' : ''})\n`)
  }
  // the problems also go to stderr, in the one format every command uses (as reconcile does)
  for (const f of built.model.findings) if (f.severity !== 'info') ctx.stderr.write(formatFinding(f.file === undefined ? { ...f, file: f.partition } : f) + '\n')
  return built.done.some((d) => hasErrors(d.report.findings)) ? 1 : 0
}
