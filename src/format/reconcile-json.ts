// reconcile's JSON document, written as its partitions come (ReconcileStream): the same text as JSON.stringify of
// `{schemaVersion, filter?, partitions, topics}`, each partition written when it comes and let go, the topic totals
// written at the end. A filtered run's `filter` comes first and lists every partition's range, so there each
// partition's text is held (a string, not its report) until the end.
import type { ReconciledPartition, ReconcileStream } from '../analysis/partition-results.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { rangeJsonOf, rangePartitionJson } from './range-text.js'
import type { TopicTotal } from './txn-json.js'
import { addTopicTotal, partitionReportJson, TRANSACTION_SCHEMA_VERSION } from './txn-json.js'
import type { Writer } from './writer.js'

export class ReconcileJsonStream implements ReconcileStream {
  private readonly totals = new Map<string, TopicTotal>()
  private written = 0
  /** filtered: each partition's text and its range's, until the filter is written */
  private readonly held: string[] = []
  private readonly ranges: string[] = []

  constructor(
    private readonly w: Writer,
    private readonly filtered: boolean,
  ) {}

  partition(p: ReconciledPartition): void {
    addTopicTotal(this.totals, p.report)
    const text = JSON.stringify(partitionReportJson(p.report, p.path))
    if (this.filtered) {
      this.held.push(text)
      this.ranges.push(JSON.stringify(rangePartitionJson(p)))
      return
    }
    this.w.write((this.written++ === 0 ? `{"schemaVersion":${TRANSACTION_SCHEMA_VERSION},"partitions":[` : ',') + text)
  }

  end(filter: RangeSpec | undefined): void {
    const w = this.w
    if (this.filtered) {
      // the filter's own fields, then its partitions' entries: the object ends `"partitions":[]}` with none
      const head =
        filter === undefined
          ? ''
          : `"filter":${JSON.stringify(rangeJsonOf(filter, [])).slice(0, -2)}${this.ranges.join(',')}]},`
      w.write(`{"schemaVersion":${TRANSACTION_SCHEMA_VERSION},${head}"partitions":[`)
      this.ranges.length = 0
      for (let i = 0; i < this.held.length; i++) w.write((i === 0 ? '' : ',') + this.held[i]!)
      this.held.length = 0
    } else if (this.written === 0) w.write(`{"schemaVersion":${TRANSACTION_SCHEMA_VERSION},"partitions":[`)
    w.write(`],"topics":${JSON.stringify([...this.totals.values()])}}\n`)
  }
}
