// `tsdump report`: doctor's picture. doctor's one run (commands/doctor.ts: one broker model, every analysis) with a
// LaneCollector plugged into its partition scan as each partition's RunSink, lso's blocking transaction; format/report/
// turns that into the page (reportModel, doctorModel, capabilitiesModel, reportChunks): doctor's ranked findings
// first, the lanes, then a section per analysis. This file only wires them and writes the one output file.
import type { Finding } from '../analysis/findings.js'
import { EXIT_FINDINGS, EXIT_OK, EXIT_USAGE, exitCodeFor, finding } from '../analysis/findings.js'
import { formatFinding } from '../format/finding-text.js'
import type { ReportPartition } from '../format/report/from-results.js'
import { reportModel } from '../format/report/from-results.js'
import type { ReportModel } from '../format/report/model.js'
import { pageChunks } from '../format/report/render.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { writeOutputPieces } from '../io/output-file.js'
import type { CommandContext } from './context.js'
import type { LaneLimits } from '../format/report/lane-collector.js'
import { LaneCollector, pageBudget } from '../format/report/lane-collector.js'
import { writeUnusable } from './partition-command.js'
import type { RemoteInput } from '../io/remote/spec.js'
import { BrokerModel } from '../scan/broker-model.js'
import type { DoctorResult } from '../analysis/doctor/types.js'
import { capabilitiesModel, doctorModel } from '../format/report/from-doctor.js'
import type { DoctorOptions } from './doctor.js'
import { doctorExitCode, doctorRun } from './doctor.js'
import { ReportStream, reportPartition } from './report-stream.js'
import { holdDuring } from '../io/young-generation.js'
import { withRemoteSegments } from '../scan/remote-segments.js'

export interface ReportOptions {
  paths: string[]
  /** --remote-storage: remote segments read before the local ones */
  remote?: RemoteInput
  /** false: stop at framing damage as Kafka's reader does (--no-resync); by default reading resumes at the next valid batch, as the dump does */
  resync?: boolean
  /** the HTML file to write; '-' = stdout */
  output: string
  bootstrapServer?: string
  maxTransactionTimeoutMinutes?: number
  /** epoch ms that ages are measured against (--now); default the clock */
  now?: number
  title?: string
  generator?: string
}

/** Not user options: tests make the page budgets small. */
export interface ReportInternals {
  /** per-lane limits */
  limits?: Partial<LaneLimits>
  /** items drawn one by one in the whole report; beyond it the largest lanes are aggregated */
  maxReportItems?: number
  /** buckets drawn in the whole report; the aggregated lanes share them */
  maxReportBuckets?: number
}

// Page size: measured 750 bytes of HTML per drawn item on the fixtures, up to 1.7 KB with 19-digit producer
// ids and 13-digit offsets (bar, title, marker tick, table row); a bucket up to ~0.6 KB. The budgets keep
// the worst case near 4 MB, under the page's 5 MB bound, plus ~3 KB of tables per partition.
const DEFAULT_LIMITS: LaneLimits = { maxItems: 1500, maxBuckets: 400 }
const MAX_REPORT_ITEMS = 1800
/** buckets drawn in the whole report, shared by the aggregated lanes */
const MAX_REPORT_BUCKETS = 2000
/** transactions listed in the page's transactions section (the rest counted) */
const TRANSACTIONS_SHOWN = 200

export interface BuiltReport {
  /** paths that could not be used at all (exit 2), one UNREADABLE finding each */
  unusable: Finding[]
  /** partition directories inside a named log directory that could not be read while others were (exit 1) */
  unreadable?: Finding[]
  partitions: ReportPartition[]
  /** every file the scan read (the output must not be one of them) */
  inputFiles: string[]
  model: ReportModel
  /** doctor's result, whose ranked findings the page shows first (absent when a path could not be used) */
  doctor?: DoctorResult
}

/**
 * doctor's one run over `paths` (commands/doctor.ts), the lanes collected in its partition scan, and the report's
 * model: doctor's ranked findings first, each partition's lane, a section per analysis doctor ran.
 */
export function buildReportModel(
  opts: ReportOptions,
  internals: ReportInternals = {},
  clock: () => number = Date.now,
): BuiltReport {
  const limits: LaneLimits = { ...DEFAULT_LIMITS, ...internals.limits }
  const collectors = new Map<PartitionDir, LaneCollector>()
  // a path that cannot be used stops the report (exit 2), as it stops reconcile: nothing is read
  const { brokerModel, unusable } = resolvedModel(opts)
  const nowMs = opts.now ?? clock()
  if (unusable.length > 0)
    return {
      unusable,
      partitions: [],
      inputFiles: [],
      model: reportModel({
        title: opts.title,
        generator: opts.generator ?? 'tsdump',
        inputs: opts.paths,
        partitions: [],
      }),
    }
  const run = doctorRun(opts.paths, doctorOptions(opts, nowMs), {
    analyzer: (dir) => {
      const c = new LaneCollector(limits)
      collectors.set(dir, c)
      return { sink: c }
    },
    keepTransactions: TRANSACTIONS_SHOWN,
    model: brokerModel,
    ...(opts.resync === false ? { resync: false } : {}),
  })
  run.result.summary.nowGiven = opts.now !== undefined
  const { unreadable, scanned } = run.scanned ?? { unreadable: [], scanned: [] }
  const all = [...collectors.values()]
  // the report as a whole stays small: aggregate the lanes with the most items first
  const { aggregated, perLane } = pageBudget(
    all.map((c) => c.itemCount()),
    all.map((c) => c.aggregated()),
    internals.maxReportItems ?? MAX_REPORT_ITEMS,
    internals.maxReportBuckets ?? MAX_REPORT_BUCKETS,
    limits.maxBuckets,
  )
  all.forEach((c, i) => {
    if (aggregated[i] === true) c.aggregate()
  })
  const timeoutMs = (opts.maxTransactionTimeoutMinutes ?? 15) * 60_000
  // the coordinator's records as lso reads them (given or beside the paths, read in the scan's pass): the same verdict and age source
  const states = run.model === null ? [] : run.model.transactionState().states
  const partitions = scanned.map((s): ReportPartition => {
    const c = collectors.get(s.dir)!
    return reportPartition(
      s,
      states,
      { nowMs, timeoutMs, bootstrapServer: opts.bootstrapServer ?? 'localhost:9092' },
      { ...c.lane(perLane), recentlyEnded: (pid, first) => c.recentlyEnded(pid, first) },
    )
  })
  const model = {
    ...reportModel({ title: opts.title, generator: opts.generator ?? 'tsdump', inputs: opts.paths, partitions }),
    doctor: doctorModel(run.result),
    capabilities: capabilitiesModel(run),
  }
  return {
    unusable,
    ...(unreadable.length > 0 ? { unreadable } : {}),
    partitions,
    inputFiles: scanned.flatMap((s) => withRemoteSegments(s.dir).files.map((f) => f.path)),
    model,
    doctor: run.result,
  }
}

export async function runReport(
  opts: ReportOptions,
  ctx: CommandContext,
  internals: ReportInternals = {},
): Promise<number> {
  const limits: LaneLimits = { ...DEFAULT_LIMITS, ...internals.limits }
  // a path that cannot be used stops the report (exit 2), as it stops reconcile: nothing is read
  const { brokerModel, unusable } = resolvedModel(opts)
  if (unusable.length > 0) {
    writeUnusable(unusable, ctx)
    return EXIT_USAGE
  }
  const nowMs = opts.now ?? ctx.now()
  const stream = new ReportStream(
    {
      limits,
      maxItems: internals.maxReportItems ?? MAX_REPORT_ITEMS,
      maxBuckets: internals.maxReportBuckets ?? MAX_REPORT_BUCKETS,
    },
    brokerModel,
    {
      nowMs,
      timeoutMs: (opts.maxTransactionTimeoutMinutes ?? 15) * 60_000,
      bootstrapServer: opts.bootstrapServer ?? 'localhost:9092',
      output: opts.output,
      title: opts.title,
    },
  )
  try {
    const run = doctorRun(opts.paths, doctorOptions(opts, nowMs), {
      analyzer: (dir) => ({ sink: stream.collector(dir) }),
      ended: (s, cleanup, at) => stream.ended(s, cleanup, at),
      keepTransactions: TRANSACTIONS_SHOWN,
      model: brokerModel,
      ...(opts.resync === false ? { resync: false } : {}),
    })
    run.result.summary.nowGiven = opts.now !== undefined
    const unreadable = run.scanned?.unreadable ?? []
    writeUnusable(unreadable, ctx)
    if (stream.outputIsInput) {
      ctx.stderr.write(
        `tsdump: error: ${opts.output}: is one of the files being read; tsdump never writes to its inputs\n`,
      )
      return EXIT_USAGE
    }
    const page = stream.page(run, { generator: opts.generator ?? 'tsdump', inputs: opts.paths })
    // the page written a piece at a time, each partition's read back from the scratch file as its turn comes; the
    // young generation held where the run left it (its pieces are garbage at once)
    const pieces = pageChunks(page.parts)
    if (opts.output === '-') {
      holdDuring(() => {
        for (const p of pieces) ctx.stdout.write(p)
      })
    } else {
      let bytes: number
      try {
        bytes = holdDuring(() => writeOutputPieces(opts.output, pieces))
      } catch (e) {
        ctx.stderr.write(
          `${formatFinding(finding('OUTPUT_WRITE_FAILED', `cannot write the report: ${describeFsError(e)}`, { file: opts.output }))}\n`,
        )
        return EXIT_USAGE
      }
      ctx.stderr.write(
        `tsdump: wrote ${opts.output} (${bytes} bytes, ${page.partitions} partition${page.partitions === 1 ? '' : 's'}` +
          `${page.someAggregated ? ', some lanes aggregated' : ''})\n`,
      )
    }
    // the problems also go to stderr, in the one format every command uses (as reconcile's printer writes them)
    for (const t of stream.stderrTexts()) ctx.stderr.write(t)
    const code = Math.min(Math.max(stream.worst, exitCodeFor(unreadable)), EXIT_FINDINGS)
    // what doctor ranks counts too (a transaction's, cleanup's, a replica's finding), as its own exit code says
    return code === EXIT_OK && doctorExitCode(run.result) === EXIT_FINDINGS ? EXIT_FINDINGS : code
  } finally {
    stream.close()
  }
}

/**
 * the model doctor's run reads, resolved once (its side files, such as the checkpoints, are read here), with the
 * young generation held through the discovery (io/young-generation.ts holdDuring: 20,000 partitions grew it to 32 MiB)
 */
function resolvedModel(opts: ReportOptions): { brokerModel: BrokerModel; unusable: Finding[] } {
  const brokerModel = new BrokerModel(opts.paths, {
    ...(opts.remote !== undefined ? { remote: opts.remote } : {}),
    metadataInScan: true,
    ...(opts.resync === false ? { resync: false } : {}),
  })
  return { brokerModel, unusable: holdDuring(() => brokerModel.resolved()).unusable }
}

/** doctor's options of the report's */
function doctorOptions(opts: ReportOptions, nowMs: number): DoctorOptions {
  return {
    ...(opts.remote !== undefined ? { remote: opts.remote } : {}),
    now: nowMs,
    ...(opts.maxTransactionTimeoutMinutes !== undefined
      ? { maxTransactionTimeoutMinutes: opts.maxTransactionTimeoutMinutes }
      : {}),
    ...(opts.bootstrapServer !== undefined ? { bootstrapServer: opts.bootstrapServer } : {}),
  }
}
