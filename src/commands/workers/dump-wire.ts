// What the main thread and the dump workers (commands/workers/dump-worker.ts) tell each other, and the worker's
// output writer: chunks of whole lines, posted as they fill, with a byte budget in flight (backpressure).
import type { Finding } from '../../analysis/findings.js'
import type { SummaryPart } from '../../analysis/log-summary.js'
import type { Writer } from '../../format/writer.js'
import type { KafkaFile } from '../../io/discover.js'
import type { DumpInternals, DumpOptions } from '../dump/dump-options.js'
import type { RangeTotals } from '../dump/dump-range.js'

/** a chunk is posted once it holds this much (output streams while a range is dumped) */
export const CHUNK_BYTES = 256 * 1024
/**
 * each worker's output ring (shared memory): at most this much of its output is not yet written. 1 MiB, not
 * 4: a deep dump with 2 workers peaked 12 MiB lower (119 vs 131 MiB, 1 M offset gaps) at the same CPU time.
 */
export const RING_BYTES = 1024 * 1024

export interface WorkerSetup {
  file: KafkaFile
  opts: DumpOptions
  colorLevel: 0 | 1 | 2 | 3
  internals: DumpInternals
  /** the worker's output ring, RING_BYTES */
  ring: SharedArrayBuffer
  /** one int32: bytes of the ring posted and not yet written by the main thread (skipped ends included) */
  inFlight: SharedArrayBuffer
  /** the worker's read window */
  window: number
}

export interface RangeRequest {
  id: number
  from: number
  end: number
}

/** output bytes: ring[offset, offset + length) after `skip` unused bytes at the ring's end; or, larger than the ring, `data` */
export interface ChunkMessage {
  type: 'chunk'
  id: number
  offset: number
  length: number
  skip: number
  data?: ArrayBuffer
}

export type WorkerMessage =
  | ChunkMessage
  | {
      type: 'done'
      id: number
      stderr: string
      findings: Finding[]
      repeats: Array<[number, number]>
      summary: SummaryPart
      totals: WireTotals
    }
  | { type: 'error'; id: number; message: string; code: string | undefined }

/**
 * RangeTotals as posted (a class instance does not survive the clone): the range's kept offset gaps oldest
 * first as two arrays, and how many it pushed in all (a range with more than the list's limit dropped its oldest).
 */
export type WireTotals = Omit<RangeTotals, 'pairs'> & { pairs: { a: BigInt64Array; b: BigInt64Array; length: number } }

export function toWire(t: RangeTotals): WireTotals {
  return { ...t, pairs: { ...t.pairs.oldestFirst(), length: t.pairs.length } }
}

/**
 * A Writer into the worker's shared output ring, posting chunks as they fill. A chunk ends where a write
 * or commit ended, so it never splits a UTF-8 character. The main thread consumes each worker's chunks in
 * the order they were posted; reserve waits (Atomics.wait) while the ring has no room: that is the
 * backpressure that bounds a worker ahead of the range being written.
 */
export class RingWriter implements Writer {
  closed = false
  range = -1
  private readonly ring: Buffer
  private start = 0
  private pos = 0
  private skip = 0
  /** a line larger than half the ring gets a buffer of its own, posted (transferred) alone */
  private big: Buffer | undefined
  private readonly inFlight: Int32Array

  constructor(
    ring: SharedArrayBuffer,
    inFlight: SharedArrayBuffer,
    private readonly post: (m: WorkerMessage, transfer?: ArrayBuffer[]) => void,
  ) {
    this.ring = Buffer.from(ring)
    this.inFlight = new Int32Array(inFlight)
  }

  get buffer(): Buffer {
    return this.big ?? this.ring
  }

  write(s: string): void {
    const at = this.reserve(s.length * 3)
    // utf8Write skips Buffer#write's argument normalisation (as cli/fd-writer.ts FdWriter does)
    this.commit(at + (this.buffer as unknown as Utf8Writable).utf8Write(s, at, s.length * 3))
  }

  reserve(n: number): number {
    if (n > RING_BYTES / 2) {
      this.flush()
      this.waitFor(() => Atomics.load(this.inFlight, 0) === 0)
      this.big = Buffer.allocUnsafeSlow(n)
      return 0
    }
    if (this.pos + n > RING_BYTES) {
      this.flush()
      this.skip += RING_BYTES - this.pos
      this.start = this.pos = 0
    }
    if (Atomics.load(this.inFlight, 0) + this.skip + (this.pos - this.start) + n > RING_BYTES) {
      this.flush()
      this.waitFor(() => Atomics.load(this.inFlight, 0) + this.skip + n <= RING_BYTES)
    }
    return this.pos
  }

  commit(end: number): void {
    const big = this.big
    if (big !== undefined) {
      this.big = undefined
      Atomics.add(this.inFlight, 0, end)
      const data = big.buffer as ArrayBuffer
      this.post({ type: 'chunk', id: this.range, offset: big.byteOffset, length: end, skip: 0, data }, [data])
      return
    }
    this.pos = end
    if (this.pos - this.start >= CHUNK_BYTES) this.flush()
  }

  writeBytes(bytes: Uint8Array): void {
    const at = this.reserve(bytes.length)
    this.buffer.set(bytes, at) // (not used by the dump: a worker's printer writes lines)
    this.commit(at + bytes.length)
  }

  flush(): void {
    if (this.pos === this.start) return
    const length = this.pos - this.start
    Atomics.add(this.inFlight, 0, length + this.skip)
    this.post({ type: 'chunk', id: this.range, offset: this.start, length, skip: this.skip })
    this.skip = 0
    this.start = this.pos
  }

  // the main thread subtracts what it wrote and notifies
  private waitFor(ok: () => boolean): void {
    while (!ok()) Atomics.wait(this.inFlight, 0, Atomics.load(this.inFlight, 0), 1000)
  }
}

interface Utf8Writable {
  utf8Write(s: string, offset: number, length: number): number
}
