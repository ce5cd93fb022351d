// transactions' external merge. Each bucket is joined a share of its producer ids at a time (scan/transactions-
// stream.ts); the shares' sorted transactions are kept as bytes and merged into the bucket's run, written after
// the one before into one temp file; the runs are merged into the listed order (bucket-join.ts compareOrdered).
// Each record starts with its place in the order (when it began, producer id, epoch), so a head waits as those
// three and its bytes in its chunk: a transaction is made into objects only when it is its turn. Heads held as
// objects lived through two scavenges, and V8 promoted a run's worth to its old space at every one.
import type { BucketContext, Ordered } from '../analysis/transaction-join/bucket-join.js'
import { completeJoined } from '../analysis/transaction-join/bucket-join.js'
import { SiblingVersions, joinKeyGroup } from '../analysis/transaction-join/join.js'
import type { JoinedTransaction } from '../analysis/transaction-join/types.js'
import type { FileTable } from '../analysis/transaction-join/wire.js'
import { ByteIn, ByteOut } from '../io/spill-bytes.js'
import type { SpillDir } from '../io/spill.js'
import { BufferCursor, LENGTH } from '../io/spill.js'
import type { ShareGroups } from './share-groups.js'
import { joinedR, joinedW, versionP } from './transaction-wire.js'

const RUNS = 'runs'

type Key = number | bigint | null

/** a record of a file's range or of a buffer: `next()`, then its bytes are buf[pos, end) */
interface Cursor {
  buf: Buffer
  pos: number
  end: number
  next(): boolean
}

/** a before b: when it began (none last), then producer id, then epoch, as compareOrdered */
function order3(ka: Key, pa: number | bigint, ea: number, kb: Key, pb: number | bigint, eb: number): number {
  if (ka !== kb) {
    if (ka === null) return 1
    if (kb === null) return -1
    if (ka < kb) return -1
    if (ka > kb) return 1
  }
  if (pa < pb) return -1
  if (pa > pb) return 1
  return ea - eb
}

/**
 * The heads of sorted sequences of records in a binary heap, by the place each record starts with; on a tie the
 * earlier sequence's first. `pop()` gives the sequence whose head is next (-1 when all are done): its record is
 * cursors[i].buf[at(i), cursors[i].end), valid until the next pop.
 */
class HeadMerge {
  private readonly keys: Key[]
  private readonly pids: Array<number | bigint>
  private readonly epochs: Int32Array
  private readonly bodies: Int32Array
  private readonly heap: Int32Array
  private size = 0
  private last = -1
  private readonly r = new ByteIn()

  constructor(readonly cursors: readonly Cursor[]) {
    const n = cursors.length
    this.keys = new Array<Key>(n).fill(null)
    this.pids = new Array<number | bigint>(n).fill(0)
    this.epochs = new Int32Array(n)
    this.bodies = new Int32Array(n)
    this.heap = new Int32Array(n)
    for (let i = 0; i < n; i++) if (this.head(i)) this.heap[this.size++] = i
    for (let k = (this.size >> 1) - 1; k >= 0; k--) this.down(k)
  }

  /** where the record of sequence i starts past its place */
  at(i: number): number {
    return this.bodies[i]!
  }

  pop(): number {
    if (this.last >= 0) {
      if (!this.head(this.last)) this.heap[0] = this.heap[--this.size]!
      this.down(0)
    }
    this.last = this.size > 0 ? this.heap[0]! : -1
    return this.last
  }

  /** sequence i's next head read; false at its end */
  private head(i: number): boolean {
    const c = this.cursors[i]!
    if (!c.next()) return false
    const r = this.r.at(c.buf, c.pos)
    this.keys[i] = r.ni64n()
    this.pids[i] = r.ni64n()!
    this.epochs[i] = r.sv()
    this.bodies[i] = r.pos
    return true
  }

  private less(a: number, b: number): boolean {
    const c = order3(this.keys[a]!, this.pids[a]!, this.epochs[a]!, this.keys[b]!, this.pids[b]!, this.epochs[b]!)
    return c < 0 || (c === 0 && a < b)
  }

  private down(k: number): void {
    const h = this.heap
    for (;;) {
      const l = 2 * k + 1
      let m = k
      if (l < this.size && this.less(h[l]!, h[m]!)) m = l
      if (l + 1 < this.size && this.less(h[l + 1]!, h[m]!)) m = l + 1
      if (m === k) return
      const t = h[k]!
      h[k] = h[m]!
      h[m] = t
      k = m
    }
  }
}

export class JoinedRuns {
  private readonly from: number[] = []
  private readonly to: number[] = []
  /** the bucket's shares so far, one after another, each record after its length */
  private readonly shares = new ByteOut()
  private readonly shareEnds: number[] = []
  /** a share's transactions as joined, and their places in the order (joinShare) */
  private readonly scratch = new ByteOut()
  private readonly keys: Array<bigint | null> = []
  private readonly pids: bigint[] = []
  private readonly epochs: number[] = []
  private readonly ends: number[] = []

  constructor(
    private readonly spill: SpillDir,
    private readonly files: FileTable,
  ) {}

  /** a share of the bucket, sorted */
  addShare(sorted: readonly Ordered[]): void {
    const o = this.shares
    for (const x of sorted) {
      const at = this.head(x.key, x.t.producerId, x.t.producerEpoch)
      joinedW(o, this.files, x.t)
      o.buf.writeUInt32LE(o.pos - at - LENGTH, at)
    }
    this.shareEnds.push(o.pos)
  }

  /**
   * A share of the bucket joined one join key at a time (join.ts joinKeyGroup), each transaction completed and
   * written as bytes as it is made, so that its objects die young; then its records put in the listed order.
   * `kept` is told each transaction the filters keep, in the join's order (its version may be set at the share's end).
   */
  joinShare(share: ShareGroups, ctx: BucketContext, kept: (o: Ordered) => void): void {
    const w = this.scratch
    w.pos = 0
    const keys = this.keys
    const pids = this.pids
    const epochs = this.epochs
    const ends = this.ends
    const versions = new SiblingVersions()
    // transactions whose own epochs do not tell their version (open ones, aborts with a bump): few, set at the end
    const unknown: Array<{ t: JoinedTransaction; at: number }> = []
    const each = (t: JoinedTransaction): void => {
      versions.note(t)
      const o = completeJoined(t, share, ctx)
      if (o === null) return
      keys.push(o.key)
      pids.push(t.producerId)
      epochs.push(t.producerEpoch)
      const at = joinedW(w, this.files, t)
      ends.push(w.pos)
      if (t.transactionVersion === null) unknown.push({ t, at })
      kept(o)
    }
    for (const g of share.groups) joinKeyGroup(g, each)
    for (const u of unknown) {
      u.t.transactionVersion = versions.of(u.t.producerId)
      versionP(w.buf, u.at, u.t.transactionVersion)
    }
    // the listed order; stable: a tie keeps the join's order
    const order = Array.from(keys.keys()).sort((a, b) =>
      order3(keys[a]!, pids[a]!, epochs[a]!, keys[b]!, pids[b]!, epochs[b]!),
    )
    const o = this.shares
    for (const i of order) {
      const from = i === 0 ? 0 : ends[i - 1]!
      const at = this.head(keys[i]!, pids[i]!, epochs[i]!)
      o.ensure(ends[i]! - from)
      w.buf.copy(o.buf, o.pos, from, ends[i]!)
      o.pos += ends[i]! - from
      o.buf.writeUInt32LE(o.pos - at - LENGTH, at)
    }
    this.shareEnds.push(o.pos)
    keys.length = 0
    pids.length = 0
    epochs.length = 0
    ends.length = 0
  }

  /** a record's length left to fill and its place in the order written; where the record starts */
  private head(key: bigint | null, pid: bigint, epoch: number): number {
    const o = this.shares
    const at = o.pos
    o.ensure(LENGTH)
    o.pos += LENGTH
    o.i64(key)
    o.i64(pid)
    o.sv(epoch)
    return at
  }

  /** the bucket's shares merged into its run */
  endBucket(): void {
    const o = this.shares
    if (o.pos === 0) {
      this.shareEnds.length = 0
      return
    }
    this.from.push(this.spill.size(RUNS))
    const cursors = this.shareEnds.map((end, j) => new BufferCursor(o.buf, j === 0 ? 0 : this.shareEnds[j - 1]!, end))
    const m = new HeadMerge(cursors)
    for (let i = m.pop(); i >= 0; i = m.pop()) {
      const c = cursors[i]!
      this.spill.append(RUNS, c.buf, c.pos, c.end)
    }
    this.to.push(this.spill.size(RUNS))
    o.pos = 0
    this.shareEnds.length = 0
  }

  /** the runs' transactions in the listed order; on a tie the earlier run's first (each run a stable sort) */
  *merged(): Generator<JoinedTransaction> {
    this.spill.written()
    // the shares' buffer let go: nothing more is joined
    this.shares.buf = Buffer.allocUnsafe(0)
    const n = this.from.length
    const cursors = this.from.map((from, i) => this.spill.records(RUNS, n, from, this.to[i]))
    const m = new HeadMerge(cursors)
    const r = new ByteIn()
    for (let i = m.pop(); i >= 0; i = m.pop()) yield joinedR(r.at(cursors[i]!.buf, m.at(i)), this.files)
  }
}
