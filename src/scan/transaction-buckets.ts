// The buckets of `transactions`' hash join by producer id (scan/transactions-stream.ts): every run, coordinator
// episode, producer -> transactional id record and transactional offset commit goes to the bucket of its producer
// id, in memory when the input is small, else one temp file each under os.tmpdir() (io/spill.ts), the values as
// scan/transaction-wire.ts writes them.
import type { BucketInput } from '../analysis/transaction-join/bucket-join.js'
import type { Episode, OffsetCommitRecord, PartitionRun } from '../analysis/transaction-join/types.js'
import type { FileTable } from '../analysis/transaction-join/wire.js'
import type { I64 } from '../bytes/int64.js'
import { sizeOf } from '../io/dir-listing.js'
import type { PartitionDir } from '../io/discover.js'
import { ByteIn, ByteOut } from '../io/spill-bytes.js'
import type { SpillDir } from '../io/spill.js'
import { LENGTH } from '../io/spill.js'
import { episodeOpen, runKeyEpoch, runVersion, saysVersion2 } from '../analysis/transaction-join/join.js'
import { i64W } from './run-bytes.js'
import type { ShareGroups } from './share-groups.js'
import { COMMIT, EPISODE, ID, RUN, VERSIONS, commitTo, eachRecord, shareGroups } from './share-groups.js'
import { commitRecordR, commitRecordW, episodeR, episodeW, nameR, nameW, runR, runW } from './transaction-wire.js'

/** input bytes per bucket: a bucket's join holds several times its share of the input as objects */
export const BUCKET_BYTES = 2 * 1024 * 1024
/** at most this many buckets (the merge reads one chunk of each at a time): past it the buckets grow */
export const MAX_BUCKETS = 512

export type Item =
  | ['r', PartitionRun]
  | ['e', number, Episode]
  | ['i', bigint, string]
  | ['c', string, OffsetCommitRecord]

/** how many buckets `bytes` of input take at `per` bytes each (0 or more than the input: one, in memory) */
export function bucketCount(bytes: number, per: number): number {
  return per <= 0 || bytes <= per ? 1 : Math.min(MAX_BUCKETS, Math.ceil(bytes / per))
}

/** the .log bytes of the partitions (local files only) */
export function inputBytes(dirs: readonly PartitionDir[]): number {
  let n = 0
  for (const d of dirs)
    for (const f of d.files)
      if (f.kind === 'log' && f.remote === undefined && f.stdin !== true) n += sizeOf(f.path) ?? 0
  return n
}

const TWO_53N = 2n ** 53n

/**
 * record bytes of a bucket joined at once: a bucket read back is joined in shares of its producer ids this large,
 * so that what one join holds as objects dies young (not the whole bucket's, which V8 promoted to its old space at
 * every scavenge of the join). transactions holds its young generation at 1 MiB semi-spaces (bin/tsdump.js): a
 * share of 64 KiB made several hundred KiB of objects that a scavenge found alive and promoted, a share of 16 KiB
 * far fewer (scale-100000: 15% less CPU, bench/RESULTS.md)
 */
export const SHARE_BYTES = 16 * 1024

/** the buckets: arrays when the input is small, else one temp file each */
export class Buckets {
  private readonly mem: Item[][] | null
  private readonly names: string[]
  private readonly out = new ByteOut()
  private readonly in = new ByteIn()
  /** record bytes of a bucket joined at once (tests make it small to exercise the shares) */
  shareBytes = SHARE_BYTES
  /** the bucket read back, one buffer for all */
  private bytes: Buffer = Buffer.allocUnsafe(0)

  constructor(
    readonly n: number,
    readonly spill: SpillDir | null,
    readonly files: FileTable,
  ) {
    this.nBig = BigInt(n)
    this.mem = spill === null ? Array.from({ length: n }, () => []) : null
    this.names = Array.from({ length: n }, (_, b) => `b${b}`)
  }

  /** n as a bigint, made once (of() is asked for every episode, id and commit put) */
  private readonly nBig: bigint

  of(pid: bigint): number {
    if (this.n === 1) return 0
    // a producer id below 2^53 as a number: no BigInt division
    if (pid < TWO_53N && pid > -TWO_53N) return this.ofI64(Number(pid))
    const n = this.nBig
    return Number(((pid % n) + n) % n)
  }

  /** of() of a producer id as the analyzer holds it (a number below 2^53: no BigInt) */
  ofI64(pid: I64): number {
    if (typeof pid === 'bigint') return this.of(pid)
    const n = this.n
    return ((pid % n) + n) % n
  }

  /**
   * A run with a marker written as bytes by the caller (temp files only, `inMemory` false): beginRun() gives the
   * buffer with the item's tag, producer id, join key and version written (as put writes them; `epoch`: the
   * marker's; `version`: join.ts runVersion), the
   * caller writes the rest, end() appends it
   */
  beginRun(pid: I64, epoch: number, version: 'TV1' | 'TV2' | null): ByteOut {
    const o = this.out
    o.pos = 0
    o.u8(RUN)
    i64W(o, pid)
    o.bool(false)
    o.sv(epoch)
    o.u8(VERSIONS.indexOf(version))
    return o
  }
  end(pid: I64): void {
    this.spill!.append(this.names[this.ofI64(pid)]!, this.out.buf, 0, this.out.pos)
  }

  /** the items are held as objects (one bucket, a small input) */
  get inMemory(): boolean {
    return this.mem !== null
  }

  put(pid: bigint, item: Item): void {
    const b = this.of(pid)
    if (this.mem !== null) {
      this.mem[b]!.push(item)
      return
    }
    const f = this.files
    const o = this.out
    o.pos = 0
    // the producer id first: a bucket is split into shares by it without reading the rest
    if (item[0] === 'r') {
      o.u8(RUN)
      o.i64(pid)
      // its join key next: a share is cut into join keys without reading the rest
      o.bool(item[1].marker === null)
      o.sv(runKeyEpoch(item[1]))
      o.u8(VERSIONS.indexOf(runVersion(item[1])))
      runW(o, f, item[1])
    } else if (item[0] === 'e') {
      o.u8(EPISODE)
      o.i64(pid)
      o.uv(item[1])
      const e = item[2]
      o.bool(episodeOpen(e))
      o.sv(e.endEpoch)
      o.bool(saysVersion2(e))
      o.uv(e.partitions.size)
      for (const l of e.partitions) nameW(o, f, l)
      episodeW(o, f, e)
    } else if (item[0] === 'i') {
      o.u8(ID)
      o.i64(pid)
      o.text(item[2])
    } else {
      o.u8(COMMIT)
      o.i64(pid)
      nameW(o, f, item[1])
      commitRecordW(o, f, item[2])
    }
    this.spill!.append(this.names[b]!, o.buf, 0, o.pos)
  }

  /** the buckets' records still buffered written out, before the buckets are taken */
  flush(): void {
    this.spill?.finish()
  }

  /**
   * Bucket b's items, then forgotten (unless `keep`: a pass that may have to be run again), as one input per share
   * of its producer ids (every item of a producer id in the same share): the runs and commits in the order put,
   * the episodes in the order they began
   */
  *take(b: number, keep = false): Generator<BucketInput> {
    if (this.mem !== null) {
      const l = this.mem[b]!
      if (!keep) this.mem[b] = []
      const input = emptyInput()
      const eps: Array<[number, Episode]> = []
      for (const it of l) {
        if (it[0] === 'r') input.runs.push(it[1])
        else if (it[0] === 'e') eps.push([it[1], it[2]])
        else if (it[0] === 'i') input.idByProducer.set(it[1], it[2])
        else commitTo(input, it[1], it[2])
      }
      yield withEpisodes(input, eps)
      return
    }
    yield* this.shares(b, keep, (buf, length, starts) => this.share(buf, length, starts))
  }

  /**
   * Bucket b's items as take() gives them (temp files only), each share's runs and episodes grouped by join key and
   * read into objects one group at a time, as the join asks for the next (join.ts keyGroups' order): what a
   * producer id of a thousand transactions holds at once is one key's, not its whole history
   */
  *takeGroups(b: number): Generator<ShareGroups> {
    yield* this.shares(b, false, (buf, length, starts) => shareGroups(buf, length, starts, this.files, this.in))
  }

  /** bucket b read back (and removed unless `keep`), each share made by `make` from the records starting at `starts` (all when null) */
  private *shares<T>(
    b: number,
    keep: boolean,
    make: (buf: Buffer, length: number, starts: readonly number[] | null) => T,
  ): Generator<T> {
    const name = this.names[b]!
    const { buf, length } = this.spill!.readAll(name, this.bytes)
    this.bytes = buf
    if (!keep) this.spill!.remove(name)
    const shares = Math.max(1, Math.ceil(length / this.shareBytes))
    // one pass tells each record's share (a pass per share read the whole bucket again for each: a bucket of a
    // few busy producer ids has many shares, most of them empty)
    const starts = shares === 1 ? null : this.shareStarts(buf, length, shares)
    for (let j = 0; j < shares; j++) {
      if (starts !== null && starts[j]!.length === 0) continue
      yield make(buf, length, starts === null ? null : starts[j]!)
    }
    // the last bucket read: its buffer let go
    if (b === this.n - 1) this.bytes = Buffer.allocUnsafe(0)
  }

  /** where each record of each share starts: producer id p is in share floor((p mod n*shares) / n) */
  private shareStarts(buf: Buffer, length: number, shares: number): number[][] {
    const r = this.in
    const m = this.n * shares
    const bm = BigInt(m)
    const starts: number[][] = Array.from({ length: shares }, () => [])
    for (let at = 0; at < length; at += LENGTH + buf.readUInt32LE(at)) {
      r.at(buf, at + LENGTH + 1)
      const p = r.ni64n()!
      const k = typeof p === 'number' ? ((p % m) + m) % m : Number(((p % bm) + bm) % bm)
      starts[Math.floor(k / this.n)]!.push(at)
    }
    return starts
  }

  /** the items of the records starting at `starts` (every record of the bucket when null) */
  private share(buf: Buffer, length: number, starts: readonly number[] | null): BucketInput {
    const f = this.files
    const r = this.in
    const input = emptyInput()
    const eps: Array<[number, Episode]> = []
    eachRecord(buf, length, starts, r, (tag, p) => {
      if (tag === RUN) {
        r.bool()
        r.sv()
        r.u8()
        input.runs.push(runR(r, f))
      } else if (tag === EPISODE) {
        const seq = r.uv()
        r.bool()
        r.sv()
        r.bool()
        for (let k = r.uv(); k > 0; k--) nameR(r, f)
        eps.push([seq, episodeR(r, f)])
      } else if (tag === ID) input.idByProducer.set(BigInt(p), r.text())
      else {
        const label = nameR(r, f)
        commitTo(input, label, commitRecordR(r, f))
      }
    })
    return withEpisodes(input, eps)
  }
}

const emptyInput = (): BucketInput => ({ runs: [], episodes: [], idByProducer: new Map(), commits: new Map() })

/** the episodes in the order they began (their cutter's sequence numbers) */
function withEpisodes(input: BucketInput, eps: Array<[number, Episode]>): BucketInput {
  input.episodes = eps.sort((x, y) => x[0] - y[0]).map((x) => x[1])
  return input
}
