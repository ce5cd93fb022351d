// --transactional-id in the dump: the id's producer ids come from the coordinator's records, and the dump prints
// partitions in path order. A __transaction_state partition among the dumped paths gives them in the read that
// dumps it: its segments are dumped first, their output held (held-output.ts) until their turn, through a filter
// that lets no producer in yet (PendingProducers). The coordinator appends its records with no producer id, so
// nothing of such a partition is in range whatever the id's producer ids turn out to be; should a batch of it
// carry one of them after all, its held dump is dropped and the partition dumped again in its turn. The coordinator
// partitions beside the paths (their log directory's) are read for the id alone, as before.
import * as path from 'node:path'
import { FindingList } from '../../analysis/finding-list.js'
import type { RangeBatch, RangeSpec, RangeVerdict } from '../../analysis/range-filter.js'
import { RangeFilter } from '../../analysis/range-filter.js'
import { TsdumpError } from '../../analysis/tsdump-error.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { KafkaFile } from '../../io/discover.js'
import type { Frames } from '../../scan/internal-records.js'
import { tapRecords } from '../../scan/internal-records.js'
import { coordinatorPartitionCountOf } from '../../scan/metadata-partitions.js'
import { scanTransactionLog, transactionLogRecord } from '../../scan/transaction-log-scan.js'
import { IdProducerIds, stateDirs, transactionalIdAnswer } from '../../scan/transactional-id.js'
import type { DumpOptions } from './dump-options.js'
import type { HeldOutput, HeldPart } from './held-output.js'

const STATE_TOPIC = '__transaction_state'
/** producer ids a coordinator partition's batches may carry before its held dump is given up */
const MAX_PENDING = 1024

/** the partition's filter while its producer ids are not known: none is in; the ones asked about are kept */
class PendingProducers extends RangeFilter {
  readonly asked = new Set<bigint>()
  overflow = false

  constructor(spec: RangeSpec) {
    super({ ...spec, producerIds: [] })
  }

  override batch(b: RangeBatch): RangeVerdict {
    const p = BigInt(b.producerId)
    if (p >= 0n && !this.asked.has(p)) {
      if (this.asked.size < MAX_PENDING) this.asked.add(p)
      else this.overflow = true
    }
    return super.batch(b)
  }

  /** what was dumped is what the resolved filter dumps: none of the batches it let out is of those producer ids */
  sameAs(producerIds: readonly bigint[]): boolean {
    return !this.overflow && !producerIds.some((p) => this.asked.has(p))
  }
}

/** the held dump of one segment of a coordinator partition */
interface HeldSegment {
  part: HeldPart
  filter: PendingProducers
}

/** a segment dumped into held output, through `filter`, its frames tapped by `tap` */
export type DumpHeld = (file: KafkaFile, filter: RangeFilter, tap: FrameTap) => Promise<void>
export type FrameTap = (frames: Frames, src: SegmentSource, file: KafkaFile) => Frames

/** whether a coordinator partition's dump reads each of its bytes the one way a read for the id does */
function readsWhole(opts: DumpOptions, filter: RangeSpec): boolean {
  return (
    filter.startOffset === undefined &&
    filter.endOffset === undefined &&
    filter.fromTime === undefined &&
    filter.toTime === undefined &&
    !opts.compat &&
    opts.resync &&
    opts.maxBytes === undefined &&
    opts.maxBatchBytes === undefined &&
    opts.remote === undefined
  )
}

export class IdFirst {
  private readonly held = new Map<string, HeldSegment>()
  private producerIds: readonly bigint[] = []

  /**
   * The filter's transactional id resolved: the coordinator partitions among `files` dumped now into `out`'s held
   * output, the others read for the id. @throws TsdumpError NOT_FOUND when the id has no record
   */
  async resolve(
    opts: DumpOptions & { filter: RangeSpec & { transactionalId: string } },
    files: readonly KafkaFile[],
    out: HeldOutput,
    dump: DumpHeld,
  ): Promise<RangeSpec> {
    const filter = opts.filter
    const watch = new IdProducerIds(filter.transactionalId)
    const { dirs, logDirs } = stateDirs(opts.paths)
    const dumped = new Map(files.map((f) => [path.resolve(f.path), f]))
    const ignored = new FindingList() // what reading for the id finds is the dump's to say, as it dumps them
    for (const dir of dirs) {
      const logs = dir.files.filter((f) => f.kind === 'log')
      const own = logs.map((f) => dumped.get(path.resolve(f.path)))
      if (!readsWhole(opts, filter) || logs.length === 0 || own.some((f) => !eligible(f))) {
        scanTransactionLog(dir, (r) => {
          watch.see(r)
        })
        continue
      }
      const pending = new PendingProducers(filter)
      const tap: FrameTap = (frames, src, file) =>
        tapRecords(frames, src, file, ignored, (rec, header, f) => {
          const r = transactionLogRecord(rec, header, f, ignored)
          if (r !== null) watch.see(r)
        })
      for (const f of own) {
        out.hold()
        try {
          await dump(f!, pending, tap)
        } finally {
          this.held.set(f!.path, { part: out.release(), filter: pending })
        }
      }
    }
    const r = transactionalIdAnswer(watch, {
      dirs,
      logDirs,
      count: () => coordinatorPartitionCountOf(STATE_TOPIC, opts.paths),
    })
    if ('error' in r) throw new TsdumpError('NOT_FOUND', r.error)
    this.producerIds = r.producerIds
    return { ...filter, producerIds: r.producerIds }
  }

  /** the held dump of `file`, when it is what the resolved filter dumps (else the file is dumped again) */
  heldFor(file: KafkaFile): HeldPart | undefined {
    const h = this.held.get(file.path)
    return h !== undefined && h.filter.sameAs(this.producerIds) ? h.part : undefined
  }
}

function eligible(f: KafkaFile | undefined): boolean {
  return f !== undefined && f.kind === 'log' && f.stdin !== true && f.remote === undefined
}
