// `tsdump report`'s run in memory bounded whatever the partition count: doctor's one run (commands/doctor.ts) hands
// each partition on once it is done with it (DoctorInternals.ended), and its page parts (its model with the lane's
// items and buckets both, its reconcile row, its findings' rows, its cleanup row, its stderr text) are written to a
// scratch file (io/string-spill.ts) and the partition let go. Kept in memory are only what the page's choices need: a
// lane's item count (which lanes the page's budget aggregates is known once all are), a record's place, its topic's
// totals. The page is then drawn from the file (format/report/render.ts pageChunks), the same pieces as from the
// whole model (reportModel, the library's report()).
import { Chalk } from 'chalk'
import type { CleanupPartition } from '../analysis/cleanup/result.js'
import { exitCodeFor } from '../analysis/findings.js'
import { abortCommands, judgePartition } from '../analysis/lso.js'
import type { TransactionalIdState } from '../analysis/transactional-id-state.js'
import type { PageGroup, PageParts } from '../format/report/render.js'
import { partitionSection } from '../format/report/render.js'
import type { ReportPartition } from '../format/report/from-results.js'
import { addTopicRow, defaultTitle, findingRows, partitionModel } from '../format/report/from-results.js'
import { capabilitiesModel, cleanupRow, doctorModel } from '../format/report/from-doctor.js'
import type { LaneLimits } from '../format/report/lane-collector.js'
import { LaneCollector, mergedDown, pageBudget } from '../format/report/lane-collector.js'
import type { CleanupRow, PartitionModel, TopicRow } from '../format/report/model.js'
import { findingRow, reconcileRow } from '../format/report/tables.js'
import { formatFindings } from '../format/txn-text.js'
import type { PartitionDir } from '../io/discover.js'
import { isInputFile } from '../io/output-file.js'
import { StringSpill } from '../io/string-spill.js'
import type { BrokerModel } from '../scan/broker-model.js'
import type { ScannedPartition } from '../scan/partition-scan.js'
import { withRemoteSegments } from '../scan/remote-segments.js'
import type { DoctorRun } from './doctor.js'

/** a record's strings */
const MODEL = 0
const RECONCILE_ROW = 1
const FINDING_ROWS = 2
const CLEANUP_ROW = 3
const STDERR = 4
const PARTS = 5

/** what the page's budget decides over: the lanes and their item counts, in the order the collectors were made */
interface Lane {
  c: LaneCollector
  seq: number
}

export interface PageBudget {
  limits: LaneLimits
  /** items drawn one by one in the whole report; beyond it the largest lanes are aggregated */
  maxItems: number
  /** buckets drawn in the whole report; the aggregated lanes share them */
  maxBuckets: number
}

export interface StreamOptions {
  nowMs: number
  timeoutMs: number
  bootstrapServer: string
  /** the -o file ('-': stdout), never one of the files read */
  output: string
  title?: string | undefined
}

const PLAIN = new Chalk({ level: 0 })

/**
 * A partition as the report draws it: lso's verdict on it (analysis/lso.ts judgePartition, the coordinator's `states`
 * deciding an open transaction's) and the abort commands of what blocks it, beside its lane
 */
export function reportPartition(
  s: ScannedPartition,
  states: readonly TransactionalIdState[],
  o: { nowMs: number; timeoutMs: number; bootstrapServer: string },
  lane: ReportPartition['lane'],
): ReportPartition {
  const r = s.report
  const judged = judgePartition(r, s.snapshots, s.label, o.nowMs, o.timeoutMs, states)
  const blocking = judged.blocking
  return {
    label: s.label,
    path: s.dir.path,
    report: r,
    blocking,
    commands: blocking === null ? [] : abortCommands(o.bootstrapServer, r.topic, r.partition, blocking),
    findings: judged.findings,
    lane,
  }
}

/** a partition's model as stored: its lane's items (null past the collector's own limit) and buckets both */
interface StoredModel {
  m: PartitionModel
  /** the collector itself gave up its items (more than maxItems) */
  over: boolean
}

/** The report's partitions as doctor hands them on, each written to the scratch file as it comes. */
export class ReportStream {
  private readonly spill = new StringSpill('report', PARTS)
  private readonly lanes = new Map<PartitionDir, Lane>()
  /** by a collector's seq: its item count, and whether it gave its items up itself */
  private readonly itemCounts: number[] = []
  private readonly overflowed: boolean[] = []
  /** by a partition's place: its collector's seq, its topic group */
  private readonly seqAt: number[] = []
  private readonly groupAt: number[] = []
  private readonly groups = new Map<string | null, { id: number; first: number }>()
  private readonly topics = new Map<string, TopicRow>()
  private readonly topicFirst = new Map<string, number>()
  /** the title's names (a topic, or the path of a partition without one) by where each first comes */
  private readonly names = new Map<string, number>()
  private states: TransactionalIdState[] | undefined
  findings = 0
  errors = 0
  /** exitCodeFor the partitions' findings */
  worst = 0
  /** the -o file is one of the files read */
  outputIsInput = false

  constructor(
    private readonly budget: PageBudget,
    private readonly model: BrokerModel,
    private readonly opts: StreamOptions,
  ) {}

  /** the analyzer hook of a partition: its lane's collector */
  collector(dir: PartitionDir): LaneCollector {
    const c = new LaneCollector(this.budget.limits)
    this.lanes.set(dir, { c, seq: this.itemCounts.length })
    this.itemCounts.push(0)
    this.overflowed.push(false)
    return c
  }

  /** a partition doctor is done with (DoctorInternals.ended): its parts written, its lane let go */
  ended(s: ScannedPartition, cleanup: CleanupPartition | null, at: number): void {
    const lane = this.lanes.get(s.dir)!
    this.lanes.delete(s.dir)
    const c = lane.c
    this.itemCounts[lane.seq] = c.itemCount()
    this.overflowed[lane.seq] = c.aggregated()
    const r = s.report
    // the coordinator's states decide only an open transaction's verdict (analysis/lso.ts judgePartition)
    const states = r.openTransactions.length > 0 ? (this.states ??= this.model.transactionState().states) : []
    const p = reportPartition(s, states, this.opts, {
      items: c.sortedItems(),
      buckets: c.bucketsUpTo(this.budget.limits.maxBuckets),
      recentlyEnded: (pid, first) => c.recentlyEnded(pid, first),
    })
    const m = partitionModel(p)
    const rows = findingRows(p)
    this.findings += rows.length
    this.errors += rows.filter((f) => f.severity === 'error').length
    this.worst = Math.max(this.worst, exitCodeFor(r.findings), exitCodeFor(p.findings))
    this.place(at, lane.seq, r.topic, r.topic ?? s.dir.path)
    if (r.topic !== null) addTopicRow(this.topics, r)
    if (this.opts.output !== '-' && !this.outputIsInput)
      this.outputIsInput = isInputFile(
        this.opts.output,
        withRemoteSegments(s.dir).files.map((f) => f.path),
      )
    const stored: StoredModel = { m, over: c.aggregated() }
    this.spill.put(at, [
      JSON.stringify(stored),
      reconcileRow(m),
      rows.map(findingRow).join(''),
      cleanup === null ? '' : JSON.stringify(cleanupRow(cleanup)),
      formatFindings(
        p.label,
        [...r.findings, ...p.findings].filter((f) => f.severity !== 'info'),
        PLAIN,
        r.omittedFindings,
      ),
    ])
  }

  /** where partition `at` goes: its collector, its topic's group, the first place of its topic and title name */
  private place(at: number, seq: number, topic: string | null, name: string): void {
    while (this.seqAt.length <= at) {
      this.seqAt.push(-1)
      this.groupAt.push(-1)
    }
    this.seqAt[at] = seq
    let g = this.groups.get(topic)
    if (g === undefined) {
      g = { id: this.groups.size, first: at }
      this.groups.set(topic, g)
    }
    g.first = Math.min(g.first, at)
    this.groupAt[at] = g.id
    if (topic !== null) this.topicFirst.set(topic, Math.min(this.topicFirst.get(topic) ?? at, at))
    this.names.set(name, Math.min(this.names.get(name) ?? at, at))
  }

  /**
   * The page's budget (lane-collector.ts pageBudget, as the whole model's in commands/report.ts buildReportModel) over
   * the collectors in the order they were made: by a collector's seq, whether its lane is aggregated, and each one's
   * buckets
   */
  private choose(): { aggregated: boolean[]; perLane: number } {
    // a lane whose partition never ended (its scan failed) counts as the whole model counted it
    for (const l of this.lanes.values()) {
      this.itemCounts[l.seq] = l.c.itemCount()
      this.overflowed[l.seq] = l.c.aggregated()
    }
    return pageBudget(
      this.itemCounts,
      this.overflowed,
      this.budget.maxItems,
      this.budget.maxBuckets,
      this.budget.limits.maxBuckets,
    )
  }

  /** the page's parts, read back from the file as the page is written; `some`: whether any lane drawn is aggregated */
  page(
    run: DoctorRun,
    head: { generator: string; inputs: string[] },
  ): { parts: PageParts; partitions: number; someAggregated: boolean } {
    const { aggregated, perLane } = this.choose()
    const places = this.places()
    const partitions = places.length
    const section = (at: number): string => {
      const { m, over } = JSON.parse(this.spill.get(at, MODEL)) as StoredModel
      const seq = this.seqAt[at]!
      const agg = over || aggregated[seq] === true
      return partitionSection({
        ...m,
        items: agg ? null : m.items,
        buckets: agg ? mergedDown(m.buckets ?? [], perLane) : null,
      })
    }
    // partitions grouped by topic in the order each first comes, the partitions without a topic last
    const members = new Map<number, number[]>()
    for (const at of places) {
      const id = this.groupAt[at]!
      const l = members.get(id)
      if (l === undefined) members.set(id, [at])
      else l.push(at)
    }
    const groups = [...this.groups.entries()]
      .sort((a, b) => (a[0] === null ? 1 : 0) - (b[0] === null ? 1 : 0) || a[1].first - b[1].first)
      .map(([topic, g]): PageGroup => {
        const ats = members.get(g.id) ?? []
        return {
          topic,
          rows: () => lazily(ats, (at) => this.spill.get(at, RECONCILE_ROW)),
          sections: () => lazily(ats, section),
        }
      })
    const cleanupRows = function* (this: ReportStream): Generator<CleanupRow> {
      for (const at of places) {
        const row = this.spill.get(at, CLEANUP_ROW)
        if (row !== '') yield JSON.parse(row) as CleanupRow
      }
    }
    const caps = capabilitiesModel(run)
    const byFirst = <T>(m: Map<T, number>): T[] => [...m.entries()].sort((a, b) => a[1] - b[1]).map((e) => e[0])
    return {
      parts: {
        title: this.opts.title ?? defaultTitle(byFirst(this.names)),
        generator: head.generator,
        inputs: head.inputs,
        topics: byFirst(this.topicFirst).map((t) => this.topics.get(t)!),
        doctor: doctorModel(run.result),
        groups,
        capabilities: { ...caps, cleanup: run.cleanup === null ? null : cleanupRows.call(this) },
        findings: {
          count: this.findings,
          errors: this.errors,
          rows: () => lazily(places, (at) => this.spill.get(at, FINDING_ROWS)),
        },
      },
      partitions,
      someAggregated: places.some((at) => aggregated[this.seqAt[at]!] === true),
    }
  }

  /** each partition's stderr text, in order */
  *stderrTexts(): Generator<string> {
    for (const at of this.places()) yield this.spill.get(at, STDERR)
  }

  /** the places of the partitions put, in order */
  private places(): number[] {
    const out: number[] = []
    for (let at = 0; at < this.spill.count; at++) if (this.spill.has(at)) out.push(at)
    return out
  }

  close(): void {
    this.spill.close()
  }
}

/** f of each of `xs`, made as it is asked for */
function* lazily<T>(xs: readonly number[], f: (x: number) => T): Generator<T> {
  for (const x of xs) yield f(x)
}
