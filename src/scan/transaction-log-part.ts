// One __transaction_state segment read for a transactional id's producer ids in the same pass as another reader's
// read of part of it (the dump, bounded by --start-offset, --end-offset, --from-time, --to-time, --max-bytes, or
// framing differently: --compat, --no-resync, --max-batch-bytes), each byte once: the reader's frames are tapped as
// they pass (SegmentIdTap.wrap), its scanner is read on to its end after the reader stops (drain), and only the
// bytes it did not read (before where it began, after where it stopped) are read afterwards for the id alone
// (finish). The ids are exactly those scanTransactionLog finds in the whole segment, because the reader's frames
// are taken only where they are the frames a whole resynchronising read makes there:
// - FrameScanner keeps nothing from one entry to the next but its position (and a chance magic 0/1 entry found
//   after the batch it framed last, never at a seek position), so a read that begins at a batch
//   boundary of the whole read (a seek position: the start of a batch whose CRC checks, commands/dump/seek.ts)
//   frames from there as the whole read does, when it frames by the same rules (resync on, no --max-bytes or
//   --max-batch-bytes): every event of such a read is taken;
// - framing by other rules, a frame is the whole read's when the entry after it frames (the whole read checks
//   that, and only when it fails, or frames as magic 0/1 after a v2 batch, looks for a batch inside this one:
//   resync.ts overlappedBatch): a frame is taken when the next event is a frame at its end (not a magic 0/1 one
//   after a v2 one) or an entry that frames but runs past the end; at any other event
//   the reader's frames are no longer taken, and the id's read resumes there;
// - the bytes before the reader's start are read with the whole read's rules up to that start: when they do not
//   end there with a frame (damage before the seek position, or an entry across it), the segment is read whole
//   for the id instead and nothing tapped is taken.
// Read twice, then: the bytes the reader read past the point its frames stop being taken (a segment's damage, or a
// batch above --max-batch-bytes, which the reader never frames: it is framing damage to it, so no tap can see its
// records; the reader's own search for the next batch reads those bytes twice too), and with --max-bytes the entry
// the limit cuts, up to the limit. An intact segment read whole or in part is read once.
// What these reads find (damage, a record that cannot be decoded) is the reader's to say: nothing is reported here.
import { FindingList } from '../analysis/finding-list.js'
import type { TransactionStateRecord } from '../analysis/transactional-id-state.js'
import { DecodeError } from '../decode/errors.js'
import type { ScannedEvent } from '../decode/frame.js'
import type { Frame } from '../decode/frame.js'
import { DEFAULT_WINDOW, FrameScanner } from '../decode/frame-scanner.js'
import { HEADER_SIZE_UP_TO_MAGIC } from '../decode/layout.js'
import type { V2Batch } from '../decode/log-reader.js'
import { readFrame } from '../decode/log-reader.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { batchRecords } from '../decode/streamed-batch.js'
import type { KafkaFile } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'
import type { Frames } from './internal-records.js'
import { transactionLogRecord } from './transaction-log-scan.js'
import { IdProducerIds } from './transactional-id.js'

/** the frames a reader reads, tapped; drain() reads its scanner on to the end once the reader has stopped */
export type TappedFrames = Frames & { drain(): void }

/**
 * where the reader's frames stopped being taken: the id's read resumes at `at`, or at the start of the frame before
 * it (`doubtful`) when the whole read may frame that one otherwise (it looks inside a batch for another only when the
 * entry after it does not frame, resync.ts overlappedBatch, and the reader's next event did not show that it does)
 */
interface Stop {
  at: number
  doubtful: { at: number } | undefined
}

/**
 * bytes the reader skipped as damage, [from, to), resuming at `to`: its frames after `to` (`ids`) are the whole
 * read's only if that read, from `from`, also has an event that ends at `to`
 */
interface Gap extends Stop {
  to: number
  ids: IdProducerIds
}

export class SegmentIdTap {
  /** the ids of the frames taken from the reader before its first gap */
  private readonly tapped: IdProducerIds
  /** where a frame confirmed goes: `tapped`, or the newest gap's ids */
  private run: IdProducerIds
  /** the frame read last, until the event after it says whether the whole read makes it too */
  private pending: IdProducerIds
  private pendingAt = -1
  private pendingEnd = -1
  private pendingMagic = -1
  private from: number | undefined
  private next = 0
  private size = 0
  private readonly gaps: Gap[] = []
  private stop: Stop | undefined
  private ended = false
  private readonly ignored = new FindingList()

  /**
   * @param exact the reader frames by the whole read's rules (resync on, the file's end, the default largest batch)
   */
  constructor(
    private readonly file: KafkaFile,
    private readonly watch: IdProducerIds,
    private readonly exact: boolean,
  ) {
    this.tapped = new IdProducerIds(watch.transactionalId)
    this.run = this.tapped
    this.pending = new IdProducerIds(watch.transactionalId)
  }

  /** the reader's frames of `src` from `from` on, the id's records taken from them as they pass */
  wrap(frames: Frames, src: SegmentSource, from: number): TappedFrames {
    this.from = from
    this.next = from
    this.size = src.size
    return {
      next: () => {
        const ev = frames.next()
        if (this.stop === undefined && !this.ended) this.observe(ev, src)
        return ev
      },
      drain: () => {
        while (this.stop === undefined && !this.ended) this.observe(frames.next(), src)
      },
    }
  }

  private observe(ev: ScannedEvent | undefined, src: SegmentSource): void {
    if (ev === undefined) {
      this.ended = true
      // the whole read checks the entry after a frame only when it starts 17 bytes before the end or more
      if (this.exact || this.pendingAt < 0 || this.pendingEnd + HEADER_SIZE_UP_TO_MAGIC > this.size) this.take()
      if (this.next < this.size || this.pendingAt >= 0) this.stopAt(this.next)
      return
    }
    if (ev.kind === 'frame') {
      // a magic 0/1 entry after a v2 batch: the whole read looks inside both (resync.ts overlappedBatch)
      if (
        !this.exact &&
        this.pendingAt >= 0 &&
        (ev.position !== this.pendingEnd || (ev.magic < 2 && this.pendingMagic === 2))
      ) {
        this.stopAt(this.next)
        return
      }
      this.take()
      this.pendingAt = ev.position
      this.pendingEnd = ev.position + ev.sizeInBytes
      this.pendingMagic = ev.magic
      frameRecords(ev, src, this.file, this.ignored, (r) => this.pending.see(r))
      if (this.exact) this.take()
      return
    }
    if (this.exact) {
      this.next = ev.position + ev.length
      return
    }
    // an entry that frames but runs past the end (of the file, or of --max-bytes): the frame before it is the whole
    // read's; damage the reader resumes after opens a gap; any other event ends what is taken from the reader
    if (ev.kind === 'tail' && ev.declaredSize !== undefined) {
      this.take()
      this.stopAt(ev.position)
    } else if (ev.kind === 'corrupt' && ev.resyncPosition !== undefined) {
      const doubtful = this.doubtful()
      const gap: Gap = {
        at: this.next,
        to: ev.resyncPosition,
        doubtful,
        ids: new IdProducerIds(this.watch.transactionalId),
      }
      this.gaps.push(gap)
      this.run = gap.ids
      this.next = ev.resyncPosition
    } else this.stopAt(this.next)
  }

  /** the pending frame's ids taken */
  private take(): void {
    if (this.pendingAt < 0) return
    this.run.add(this.pending)
    this.pending.clear()
    this.next = this.pendingEnd
    this.pendingAt = -1
  }

  /** the pending frame left to the id's read, which reads it again; `next` moved past it */
  private doubtful(): { at: number } | undefined {
    if (this.pendingAt < 0) return undefined
    const d = { at: this.pendingAt }
    this.pending.clear()
    this.next = this.pendingEnd
    this.pendingAt = -1
    return d
  }

  /** nothing more taken from the reader: the id's read resumes at `at`, or after the pending frame */
  private stopAt(at: number): void {
    this.next = at
    const doubtful = this.doubtful()
    this.stop = { at: this.next, doubtful }
  }

  /**
   * After the reader is done with the segment: what it did not read, read for the id alone; the ids found told to
   * the watch. Also for a segment the reader did not read at all (its name out of range, the range ended before it).
   */
  finish(): void {
    if (this.from === undefined) {
      // never opened by the reader (or it could not be): the segment read whole for the id
      readPart(this.file, 0, undefined, this.watch)
      return
    }
    if (this.from > 0) {
      const before = new IdProducerIds(this.watch.transactionalId)
      if (!readPart(this.file, 0, this.from, before).endsWithFrame) {
        readPart(this.file, 0, undefined, this.watch)
        return
      }
      this.watch.add(before)
    }
    // the reader stopped without draining (an error it reported): the rest from the last frame taken
    if (!this.ended && this.stop === undefined) this.stopAt(this.next)
    this.watch.add(this.tapped)
    for (const g of this.gaps) {
      const part = new IdProducerIds(this.watch.transactionalId)
      const r = readPart(this.file, g.doubtful?.at ?? g.at, undefined, part, g.to)
      this.watch.add(part)
      // the whole read frames otherwise there: it went on to the end, and nothing more of the reader's is taken
      if (!r.synced) return
      this.watch.add(g.ids)
    }
    if (this.stop !== undefined) readPart(this.file, this.stop.doubtful?.at ?? this.stop.at, undefined, this.watch)
  }
}

/** the id's records of one v2 data batch framed, as scanTransactionLog takes them; a record that cannot be read ends its batch */
function frameRecords(
  ev: Frame,
  src: SegmentSource,
  file: KafkaFile,
  ignored: FindingList,
  see: (r: TransactionStateRecord) => void,
): void {
  if (ev.magic < 2 || ev.isControl) return
  const b = readFrame(ev, { verifyCrc: false }) as V2Batch
  try {
    for (const rec of batchRecords(b.header, b.bytes, b.complete, src, { window: DEFAULT_WINDOW })) {
      const r = transactionLogRecord(rec, b.header, file, ignored)
      if (r !== null) see(r)
    }
  } catch (e) {
    if (!(e instanceof DecodeError)) throw e
  }
}

/**
 * [from, to) of the segment (to its end without `to`) framed as scanTransactionLog frames the whole segment
 * (resynchronising), from a batch boundary of that read; its records told to `watch`. Says whether it ends at
 * `to` with a frame. With `syncAt`, it stops where an event
 * ends there (synced), reading no further than the framing bytes of the entry there; when none does, it reads on to
 * the end.
 */
function readPart(
  file: KafkaFile,
  from: number,
  to: number | undefined,
  watch: IdProducerIds,
  syncAt?: number,
): { endsWithFrame: boolean; synced: boolean } {
  let src: FileSource
  try {
    src = new FileSource(file.path)
  } catch {
    return { endsWithFrame: false, synced: false }
  }
  let last = false
  let synced = false
  const ignored = new FindingList()
  try {
    const scanner = new FrameScanner(src, {
      resync: true,
      from,
      ...(to !== undefined ? { maxBytes: to } : {}),
      ...(syncAt !== undefined ? { window: syncAt + HEADER_SIZE_UP_TO_MAGIC - from } : {}),
    })
    for (let ev = scanner.next(); ev !== undefined; ev = scanner.next()) {
      last = ev.kind === 'frame' && ev.position + ev.sizeInBytes === to
      if (ev.kind === 'frame') frameRecords(ev, src, file, ignored, (r) => watch.see(r))
      if (syncAt !== undefined && !synced && endOf(ev) === syncAt) {
        synced = true
        break
      }
    }
  } catch (e) {
    if (!(e instanceof InputError)) throw e
    last = false
  } finally {
    src.close()
  }
  return { endsWithFrame: last, synced }
}

/** where the framer goes on after `ev` */
function endOf(ev: ScannedEvent): number {
  if (ev.kind === 'frame') return ev.position + ev.sizeInBytes
  if (ev.kind === 'corrupt') return ev.resyncPosition ?? ev.position + ev.length
  return ev.position + ev.length
}
