// The state of `tsdump export`'s one read of a partition (export-read.ts exportInOneRead says what it does and
// why): the frames tap that hands each batch out or queues it, the queue, and the partition's end.
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import { corruptFinding, tailFinding } from '../analysis/log-findings.js'
import type { AnalyzerProgress } from '../analysis/partition-report.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { RangeFilter } from '../analysis/range-filter.js'
import { RecordVisibility } from '../analysis/record-visibility.js'
import { toBigInt } from '../bytes/int64.js'
import type { Frame, ScannedEvent } from '../decode/frame.js'
import type { FrameScanner } from '../decode/frame-scanner.js'
import * as L from '../decode/layout.js'
import type { V2Batch } from '../decode/log-reader.js'
import type { SegmentSource } from '../decode/segment-source.js'
import type { OffsetCheckpoint } from '../io/checkpoints.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import { openKafkaFile } from '../io/remote/open.js'
import { SpillQueue } from '../io/spill-queue.js'
import type { ExportVisitor, RecordsTap } from './export-scan.js'
import { exportBatch, finalFacts, legacyFinding, unresynced } from './export-scan.js'
import type { ScannedPartition } from './partition-scan.js'
import { AbortedSeen, Written } from './export-written.js'
import { SegmentBatches } from './export-batch-bytes.js'
import {
  BATCH_LARGE,
  FINDING,
  NotClean,
  POSITION_BYTES,
  SEGMENT,
  heldBatch,
  heldHead,
  heldItem,
  heldLarge,
  largeItem,
} from './export-held.js'
import { ReplayCopy } from './export-replay.js'

const MAX = (1n << 63n) - 1n
const NONE = new Map<bigint, bigint>()

export class OneRead {
  readonly written = new Written()
  readonly aborted = new AbortedSeen(this.written)
  vis: RecordVisibility
  readonly held = new SpillQueue()
  /** a copy of every item handed out before the partition's end, in a scratch file: for `again` */
  readonly replay = new ReplayCopy()
  readonly seg = new SegmentBatches()
  readonly large = this.seg.large
  readonly logs: KafkaFile[]
  progress: AnalyzerProgress | undefined
  notClean = false
  /** a __transaction_state batch carried a producer id: from it everything waits for `finish` (OneReadResult) */
  deferred = false
  opened = 0
  private range: RangeFilter | undefined
  /** the final facts decide what is handed out now: nothing more is copied to `replay` */
  private ending = false
  /** a frame was not clean: everything from here waits for the final facts */
  private holdAll = false
  private stopped = false
  private maxLast: bigint | null = null
  private hw: bigint | null | undefined = undefined
  private settled = false
  private file = ''

  constructor(
    private readonly dir: PartitionDir,
    private readonly checkpoints: Map<string, OffsetCheckpoint | null>,
    private readonly visit: ExportVisitor,
    private readonly findings: Finding[],
    private filter: RangeSpec | undefined,
    private readonly records: RecordsTap | undefined,
  ) {
    this.logs = dir.files.filter((f) => f.kind === 'log')
    this.range = filter === undefined ? undefined : new RangeFilter(filter)
    // until its end, a batch is written only below every bound, where these are what the final facts say of it
    this.vis = new RecordVisibility(
      { logStartOffset: 0n, highWatermark: MAX, lastStableOffset: MAX, open: NONE, unknown: new Set() },
      this.aborted,
    )
  }

  /** the partition's end: everything that waits goes, with the final facts; false when the two passes must run */
  end(scanned: ScannedPartition, mark: number): boolean {
    const facts = finalFacts(scanned.report)
    if (!this.written.holds(facts, scanned.report.openTransactions)) return this.again(facts, mark)
    this.vis.settle(facts)
    this.release(true)
    return true
  }

  /**
   * the final filter, for what waits (deferred): it differs from the one read with only in its producer ids, and
   * every batch let through before lacks one, so the filter goes on where it was with the final producer ids
   */
  refilter(final: RangeSpec | undefined): void {
    this.filter = final
    if (final?.producerIds !== undefined) this.range?.admitOnly(final.producerIds)
  }

  close(): void {
    this.held.close()
    this.replay.close()
    this.large.close()
    this.aborted.close()
  }

  /** every batch the scan feeds, before the analyzer: offsets must increase (the reasoning above needs it) */
  fed(base: bigint, last: bigint): void {
    if ((this.maxLast !== null && base <= this.maxLast) || last < base) this.unclean()
    this.maxLast = last
  }

  private fail(): never {
    this.notClean = true
    throw new NotClean()
  }

  /** a frame that is not clean: from here everything waits */
  private unclean(): void {
    if (!this.holdAll) this.held.spillFromNow()
    this.holdAll = true
  }

  /** a segment the scan could not open: the record pass's finding for it, in its place */
  unopened(f: KafkaFile): void {
    this.unclean()
    let e: unknown
    try {
      openKafkaFile(f).close()
    } catch (x) {
      e = x
    }
    if (e === undefined) this.fail() // it opens now: the record pass would read it
    this.note(
      finding(e instanceof InputError ? e.code : 'UNREADABLE', describeFsError(e), { file: f.path, position: 0 }),
    )
    this.records?.findings.push(finding('UNREADABLE', describeFsError(e), { file: f.path, position: 0 }))
  }

  /**
   * The scan's frames of one segment, each handed out after the analyzer has taken it, as the record pass frames
   * them: up to the first framing damage or tail (after which the record pass reads nothing of the segment). The
   * records tap is told every batch and every damage, as forEachInternalRecord's resyncing read tells them.
   */
  segment(frames: Pick<FrameScanner, 'next'>, src: SegmentSource, file: KafkaFile): Pick<FrameScanner, 'next'> {
    while (this.opened < this.logs.length && this.logs[this.opened]!.path !== file.path)
      this.unopened(this.logs[this.opened++]!)
    if (this.logs[this.opened++]?.path !== file.path) this.fail()
    this.seg.start(frames, src, file)
    const marker = Buffer.alloc(5)
    marker.writeUInt32BE(this.opened - 1, 1)
    this.later(marker)
    let prev: Frame | undefined
    /** where the record pass frames next; -1 once it has stopped in this segment */
    let expect = 0
    let legacy = 0
    let exported = false
    return {
      next: (): ScannedEvent | undefined => {
        let ev: ScannedEvent | undefined
        try {
          if (prev !== undefined) this.take(prev, exported)
          prev = undefined
          ev = frames.next()
        } catch (e) {
          // the segment shrank while read: the scan says so and goes on with the next segment
          if (e instanceof InputError) this.shrank(e, expect >= 0, file.path)
          else this.notClean = true
          throw e
        }
        if (ev === undefined) {
          if (legacy > 0) this.note(legacyFinding(legacy, file.path))
          legacy = 0
          return undefined
        }
        exported = expect >= 0
        if (exported && ev.position !== expect) this.fail()
        if (ev.kind === 'frame') {
          if (!exported) {
            if (ev.magic >= 2 && this.records !== undefined) prev = ev
            return ev
          }
          expect = ev.position + ev.sizeInBytes
          if (ev.magic >= 2) prev = ev
          else {
            this.unclean()
            legacy++
          }
          return ev
        }
        this.records?.findings.push(ev.kind === 'tail' ? tailFinding(ev, file.path) : corruptFinding(ev, file.path))
        if (!exported) return ev
        this.unclean()
        expect = -1
        // a chance magic 0/1 entry set aside (resync.ts overlappedBatch): the record pass frames it and reads on
        if (ev.kind === 'corrupt' && ev.kafkaEntry !== undefined && ev.kafkaEntry.magic < 2 && ev.overLimit !== true)
          this.fail()
        const own = unresynced(ev, src)
        if (own !== undefined)
          this.note(own.kind === 'tail' ? tailFinding(own, file.path) : corruptFinding(own, file.path))
        else {
          // a batch whose grown length ran into a valid batch: the record pass takes it whole, then stops
          const { frame, end } = this.seg.grown(ev.position)
          this.take(frame, true, false)
          this.note(end.kind === 'tail' ? tailFinding(end, file.path) : corruptFinding(end, file.path))
        }
        return ev
      },
    }
  }

  /** the segment shrank while read (the scan's read or ours): the record pass's finding, nothing more of it */
  private shrank(e: InputError, exported: boolean, file: string): void {
    const f = finding(e.code, e.message, { file, position: e.position })
    this.records?.findings.push(f)
    if (!exported) return
    this.unclean()
    this.note(f)
  }

  /** a segment's start: now when nothing waits (and copied for `again`), else after what waits */
  private later(marker: Buffer): void {
    if (this.held.length > 0) this.held.push(marker)
    else this.begin(this.keep(marker).readUInt32BE(1))
  }

  /** a finding of the record pass: now when nothing waits (and copied for `again`), else after what waits */
  private note(f: Finding): void {
    const item = Buffer.concat([Buffer.of(FINDING), Buffer.from(JSON.stringify(f))])
    if (this.held.length > 0) this.held.push(item, true)
    else if (!this.stopped && this.keep(item)) this.findings.push(f)
  }

  /** an item handed out before the partition's end, copied for `again` */
  private keep(item: Buffer): Buffer {
    if (!this.ending && this.replay.takes(item.length)) this.replay.queue.push(item)
    return item
  }

  private begin(segment: number): void {
    const f = this.logs[segment]!
    this.file = f.path
    if (!this.stopped) this.visit.segment(f)
  }

  /**
   * a v2 frame after the analyzer took it: to the records tap (unless `tapped` is false: the tap's resyncing reader
   * did not frame it), and to the rows unless the record pass stopped before it
   */
  private take(f: Frame, exported: boolean, tapped = true): void {
    const records = tapped ? this.records : undefined
    if (this.stopped && records === undefined) return
    const t = this.seg.batch(f)
    const { b, at, crc } = t
    if (exported && b.problems.length > 0) this.unclean()
    if (records !== undefined) this.seg.tap(t, f, records)
    if (this.stopped || !exported) return
    if (this.records !== undefined && toBigInt(b.header.producerId) >= 0n) {
      this.deferred = true
      this.unclean()
    }
    if (!this.holdAll && this.held.length === 0 && toBigInt(b.header.lastOffset) < this.bound()) {
      if (this.replay.takes(f.sizeInBytes)) {
        if (at < 0) this.replay.queue.pushPieces(heldHead(b), b.bytes)
        else {
          this.large.waiting++ // its bytes stay in the scratch file for `again`
          this.replay.queue.push(largeItem(b, crc, at), true)
        }
      }
      this.write(b, at < 0 ? this.seg.src! : this.large.source(this.file, b.position, f.sizeInBytes, at))
      return
    }
    if (at >= 0) this.large.waiting++
    this.held.push(at < 0 ? heldItem(b) : largeItem(b, crc, at), true)
    if (!this.holdAll) this.release(false)
  }

  /** the offset below which a batch's visibility is what the final facts will say (see the top of this file) */
  private bound(): bigint {
    const p = this.progress
    const start = p?.logStart() ?? null
    if (p === undefined || start === null) return -MAX
    if (!this.settled) {
      this.settled = true
      this.written.start = start
      this.vis.settle({
        logStartOffset: start,
        highWatermark: MAX,
        lastStableOffset: MAX,
        open: NONE,
        unknown: new Set(),
      })
    }
    if (this.hw === undefined) {
      // the checkpoint's HW as the scan read it (final: never below it)
      const label = `${this.dir.topic}-${this.dir.partition}`
      this.hw = this.dir.topic !== null ? (this.checkpoints.get(this.dir.logDir)?.get(label) ?? null) : null
    }
    const u = p.unstableFrom() ?? MAX
    return this.hw !== null && this.hw < u ? this.hw : u
  }

  /**
   * what waits in `q` and may go now (`end`: everything, the final facts settled); what goes before the end is
   * copied to `replay`
   */
  release(end: boolean, q = this.held): void {
    if (end) this.ending = true
    for (let item = q.peek(); item !== undefined; item = q.peek()) {
      if (item[0] === SEGMENT) {
        this.keep(item)
        q.shift()
        this.begin(item.readUInt32BE(1))
        continue
      }
      if (item[0] === FINDING) {
        this.keep(item)
        q.shift()
        if (!this.stopped) this.findings.push(JSON.parse(item.toString('utf8', 1)) as Finding)
        continue
      }
      const base = item.readBigInt64BE(POSITION_BYTES + 1 + L.OFFSET_OFFSET)
      const last = base + BigInt(item.readInt32BE(POSITION_BYTES + 1 + L.LAST_OFFSET_DELTA_OFFSET))
      if (!end && last >= this.bound()) return
      this.keep(item)
      q.shift()
      if (item[0] !== BATCH_LARGE) {
        this.write(heldBatch(item))
        continue
      }
      // one copied to `replay` keeps its bytes in the scratch file
      if (this.ending) this.large.waiting--
      const { b, at, total } = heldLarge(item)
      this.write(b, this.large.source(this.file, b.position, total, at))
    }
  }

  /**
   * The final facts reach back to rows already written (offsets went back below them): everything is handed out
   * again from its start, as the two passes' record pass hands it out, from the copy of what went before the end
   * and from what still waits, with the final facts and every aborted transaction. False when the visitor cannot
   * take the partition again.
   */
  again(facts: ReturnType<typeof finalFacts>, mark: number): boolean {
    if (this.visit.restart === undefined || !this.replay.whole) return false
    this.visit.restart()
    this.findings.length = mark
    this.stopped = false
    this.ending = true
    this.vis = new RecordVisibility({ ...facts, aborted: this.aborted.ranges() })
    this.range = this.filter === undefined ? undefined : new RangeFilter(this.filter)
    this.release(true, this.replay.queue)
    this.release(true)
    return true
  }

  private write(b: V2Batch, src = this.seg.src!): void {
    if (this.stopped) return
    const last = toBigInt(b.header.lastOffset)
    if (this.written.last === null || last > this.written.last) this.written.last = last
    if (exportBatch(b, src, this.file, this.vis, this.range, this.visit, this.findings)) this.stopped = true
  }
}
