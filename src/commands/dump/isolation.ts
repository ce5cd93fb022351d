// `dump --isolation-level`: the batches a consumer of that level receives, as kcat's
// `-X isolation.level=read_committed` shows them. What a consumer receives depends on markers written after
// the records (and on the HW and LSO), so a partition's batches are decided with its final facts: when its first
// segment is reached, the partition scan reads all of its segments (header-only framing, the facts `export` uses:
// scan/export-scan.ts finalFacts, every aborted transaction's range), then its segments are dumped with a gate
// that steps through every batch in order (analysis/record-visibility.ts, the consumer's rule).
//
// Each segment is read from the disk once: the scan reads the segments the dump will dump through
// io/held-segments.ts, which holds the bytes it read (in memory up to a bound, in a scratch file beyond it), and
// the dump reads them back from there, from the file only what the scan did not read (a large batch's body).
// The dump is the dump's own code on the same bytes, so every option (filters, --max-bytes, --deep-iteration,
// --json, damage and resync) gives the answer of two reads. Nothing is printed before the partition's end is
// read, as before: a batch's visibility can change with any later batch of a damaged log (offsets that go back
// lower the LSO or the log end), so holding only the undecided batches could not promise the same answers.
import * as path from 'node:path'
import type { V2Batch } from '../../decode/log-reader.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import { AbortedRanges, RecordVisibility } from '../../analysis/record-visibility.js'
import type { OffsetCheckpoint } from '../../io/checkpoints.js'
import { discover } from '../../io/discover.js'
import type { KafkaFile } from '../../io/discover.js'
import { HeldSegments } from '../../io/held-segments.js'
import { finalFacts } from '../../scan/export-scan.js'
import { scanPartition } from '../../scan/partition-scan.js'

export type IsolationLevel = 'read_committed' | 'read_uncommitted'
/** false: the batch is not received; true: all of it; an offset: its records from that offset (the log start) */
export type BatchGate = (b: V2Batch) => boolean | bigint

/** One gate per partition directory, made when its first segment is dumped; the bytes its scan read, for the dump. */
export class IsolationGates {
  /**
   * the gate of the partition being dumped (its segments come one after another), the one before let go: a gate
   * holds its partition's aborted transactions, and one kept per partition held 1 MiB each of scale-100000's
   * (its 50 data partitions; 58 MiB after a full collection)
   */
  private gate: { dir: string; of: BatchGate } | undefined
  private readonly checkpoints = new Map<string, OffsetCheckpoint | null>()
  /** the segments read by the scan of the partition being dumped, until the dump reads them */
  private readonly held = new HeldSegments()

  /** `dumped`: whether the dump will read a segment (only those are held; the absolute path) */
  constructor(
    private readonly level: IsolationLevel,
    private readonly dumped: (absolutePath: string) => boolean,
  ) {}

  /** the gate of the partition holding `file` (a .log segment in a partition directory) */
  of(file: KafkaFile): BatchGate {
    const dir = path.dirname(path.resolve(file.path))
    let g = this.gate?.dir === dir ? this.gate.of : undefined
    if (g === undefined) {
      this.gate = undefined
      const p = discover([dir]).partitions[0]
      // a directory discover cannot read as a partition: nothing is visible in it (its reading reports why)
      if (p === undefined) return () => false
      // the partition before this one is done: what its dump did not read again is let go
      const held = this.held
      held.reset()
      const aborted = new AbortedRanges()
      const scanned = scanPartition(p, this.checkpoints, {
        analyzer: () => ({ sink: aborted, markerEpochs: false }),
        source: (src, f) => {
          const key = path.resolve(f.path)
          return f.remote === undefined && this.dumped(key) ? held.tee(key, src) : src
        },
      })
      const vis = new RecordVisibility({ ...finalFacts(scanned.report), aborted })
      const committed = this.level === 'read_committed'
      g = (b) => {
        const v = vis.batch(b.header, b.control?.type)
        const received = committed ? v.visibleReadCommitted : v.visibleReadUncommitted
        return received && v.fromOffset > b.header.baseOffset ? v.fromOffset : received
      }
      this.gate = { dir, of: g }
    }
    return g
  }

  /** `file`'s source for the dump: the bytes its partition's scan read, the file for the rest */
  source(file: KafkaFile, opened: SegmentSource): SegmentSource {
    if (file.remote !== undefined || file.stdin === true) return opened
    return this.held.replay(path.resolve(file.path), opened)
  }

  /** the scratch file deleted (at the end of the run, and after an error) */
  close(): void {
    this.held.close()
  }
}
