// `dump --isolation-level`: the batches a consumer of that level receives, as kcat's
// `-X isolation.level=read_committed` shows them. What a consumer receives depends on markers written after
// the records (and on the HW and LSO), so each partition directory is first read header-only by the
// partition scan (scan/export-scan.ts visibilityFacts, the same facts `export` uses), then its segments are
// dumped with a gate that steps through every batch in order (analysis/record-visibility.ts, the consumer's rule).
import * as path from 'node:path'
import type { V2Batch } from '../../decode/log-reader.js'
import { RecordVisibility } from '../../analysis/record-visibility.js'
import type { OffsetCheckpoint } from '../../io/checkpoints.js'
import { discover } from '../../io/discover.js'
import type { KafkaFile } from '../../io/discover.js'
import { visibilityFacts } from '../../scan/export-scan.js'

export type IsolationLevel = 'read_committed' | 'read_uncommitted'
/** false: the batch is not received; true: all of it; an offset: its records from that offset (the log start) */
export type BatchGate = (b: V2Batch) => boolean | bigint

/** One gate per partition directory, made when its first segment is dumped. */
export class IsolationGates {
  private readonly gates = new Map<string, BatchGate>()
  private readonly checkpoints = new Map<string, OffsetCheckpoint | null>()
  constructor(private readonly level: IsolationLevel) {}

  /** the gate of the partition holding `file` (a .log segment in a partition directory) */
  of(file: KafkaFile): BatchGate {
    const dir = path.dirname(path.resolve(file.path))
    let g = this.gates.get(dir)
    if (g === undefined) {
      const p = discover([dir]).partitions[0]
      // a directory discover cannot read as a partition: nothing is visible in it (its reading reports why)
      if (p === undefined) return () => false
      const vis = new RecordVisibility(visibilityFacts(p, this.checkpoints).facts)
      const committed = this.level === 'read_committed'
      g = (b) => {
        const v = vis.batch(b.header, b.control?.type)
        const received = committed ? v.visibleReadCommitted : v.visibleReadUncommitted
        return received && v.fromOffset > b.header.baseOffset ? v.fromOffset : received
      }
      this.gates.set(dir, g)
    }
    return g
  }
}
