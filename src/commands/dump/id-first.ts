// --transactional-id in the dump: the id's producer ids come from the coordinator's records, and the dump prints
// partitions in path order. A __transaction_state partition among the dumped paths gives them in the read that
// dumps it: its segments are dumped first, their output held (held-output.ts) until their turn, through a filter
// that lets no producer in yet (PendingProducers). The coordinator appends its records with no producer id, so
// nothing of such a partition is in range whatever the id's producer ids turn out to be; should a batch of it
// carry one of them after all, its held dump is dropped and the partition dumped again in its turn. In every
// mode (--isolation-level's too) each byte of such a segment is read once (scan/transaction-log-part.ts): the dump's frames
// are tapped where they are those of a whole resynchronising read (with --compat, --no-resync, --max-bytes and
// --max-batch-bytes only up to the first framing event that read could see otherwise), its scanner is read on to
// the end once the dump stops (--end-offset, --to-time), and what it does not read (before its seek position, past
// --max-bytes or its stop at damage, a segment named out of range or after the range ended) is read after it for the
// id alone. --remote-storage changes nothing here: Kafka tiers no internal or compacted topic
// (UnifiedLog.isRemoteLogEnabled), so a coordinator partition's segments are all local. The coordinator partitions
// beside the paths (their log directory's) are read for the id alone, as before.
import * as path from 'node:path'
import type { RangeBatch, RangeSpec, RangeVerdict } from '../../analysis/range-filter.js'
import { RangeFilter } from '../../analysis/range-filter.js'
import { TsdumpError } from '../../analysis/tsdump-error.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import type { KafkaFile } from '../../io/discover.js'
import type { Frames } from '../../scan/internal-records.js'
import { coordinatorPartitionCountOf } from '../../scan/metadata-partitions.js'
import { scanTransactionLog } from '../../scan/transaction-log-scan.js'
import type { TappedFrames } from '../../scan/transaction-log-part.js'
import { SegmentIdTap } from '../../scan/transaction-log-part.js'
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
export type FrameTap = (frames: Frames, src: SegmentSource, file: KafkaFile, from: number) => TappedFrames

/**
 * whether the dump frames a segment as scanTransactionLog does (resynchronising, to the file's end, batches up to
 * the default largest): then every event of its read is the whole read's (scan/transaction-log-part.ts)
 */
function framesAsWhole(opts: DumpOptions): boolean {
  return opts.resync && !opts.compat && opts.maxBytes === undefined && opts.maxBatchBytes === undefined
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
    unread: ReadonlySet<string>,
    out: HeldOutput,
    dump: DumpHeld,
  ): Promise<RangeSpec> {
    const filter = opts.filter
    const watch = new IdProducerIds(filter.transactionalId)
    const { dirs, logDirs } = stateDirs(opts.paths)
    const dumped = new Map(files.map((f) => [path.resolve(f.path), f]))
    for (const dir of dirs) {
      const logs = dir.files.filter((f) => f.kind === 'log')
      const own = logs.map((f) => dumped.get(path.resolve(f.path)))
      if (logs.length === 0 || own.some((f) => !eligible(f))) {
        scanTransactionLog(dir, (r) => {
          watch.see(r)
        })
        continue
      }
      // the segments in the dump's order, as its loop takes them: one filter for the partition, a segment named out
      // of range not dumped, none after the range ended (their held output empty); each read for the id in the same
      // pass, what the dump leaves unread read after it
      const pending = new PendingProducers(filter)
      const taps: SegmentIdTap[] = []
      for (const f of own as KafkaFile[]) {
        const tap = new SegmentIdTap(f, watch, framesAsWhole(opts))
        taps.push(tap)
        if (unread.has(f.path)) continue
        out.hold()
        try {
          if (!pending.done) await dump(f, pending, (frames, src, _file, from) => tap.wrap(frames, src, from))
        } finally {
          this.held.set(f.path, { part: out.release(), filter: pending })
        }
      }
      for (const t of taps) t.finish()
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
