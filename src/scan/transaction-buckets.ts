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
import type { KeyGroup, PairedKeyGroup } from '../analysis/transaction-join/join.js'
import {
  episodeOpen,
  joinKey,
  pairsByCount,
  runKeyEpoch,
  runLabel,
  runVersion,
  saysVersion2,
  versionFrom,
} from '../analysis/transaction-join/join.js'
import { sortSmall } from '../analysis/small-sort.js'
import { i64W } from './run-bytes.js'
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

const RUN = 0
const EPISODE = 1
const ID = 2
const COMMIT = 3

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
      yield this.share(buf, length, starts === null ? null : starts[j]!)
    }
    // the last bucket read: its buffer let go
    if (b === this.n - 1) this.bytes = Buffer.allocUnsafe(0)
  }

  /**
   * Bucket b's items as take() gives them (temp files only), each share's runs and episodes grouped by join key and
   * read into objects one group at a time, as the join asks for the next (join.ts keyGroups' order): what a
   * producer id of a thousand transactions holds at once is one key's, not its whole history
   */
  *takeGroups(b: number): Generator<ShareGroups> {
    const name = this.names[b]!
    const { buf, length } = this.spill!.readAll(name, this.bytes)
    this.bytes = buf
    this.spill!.remove(name)
    const shares = Math.max(1, Math.ceil(length / this.shareBytes))
    const starts = shares === 1 ? null : this.shareStarts(buf, length, shares)
    for (let j = 0; j < shares; j++) {
      if (starts !== null && starts[j]!.length === 0) continue
      yield this.shareGroups(buf, length, starts === null ? null : starts[j]!)
    }
    if (b === this.n - 1) this.bytes = Buffer.allocUnsafe(0)
  }

  /** the ids and commits of the records starting at `starts` (all when null) read, their runs and episodes indexed by join key */
  private shareGroups(buf: Buffer, length: number, starts: readonly number[] | null): ShareGroups {
    const f = this.files
    const r = this.in
    const input: ShareGroups = { idByProducer: new Map(), commits: new Map(), groups: [] }
    // per join key its runs and episodes; the keys of runs first, in the order read
    const keys = new Map<string, KeyAt>()
    const seqs: number[] = []
    const epKeys: string[] = []
    const epOpen: boolean[] = []
    const epAt: number[] = []
    const n = starts === null ? Number.POSITIVE_INFINITY : starts.length
    for (let i = 0, at = 0; i < n && at < length; i++) {
      if (starts !== null) at = starts[i]!
      r.at(buf, at + LENGTH)
      at += LENGTH + buf.readUInt32LE(at)
      const tag = r.u8()
      const p = r.ni64n()!
      if (tag === RUN) {
        const open = r.bool()
        const k = joinKey(open, p, r.sv())
        let g = keys.get(k)
        if (g === undefined) {
          g = keyAt(open)
          keys.set(k, g)
        }
        const v = r.u8()
        if (v === TV1) g.tv1 = true
        else if (v === TV2) g.tv2 = true
        g.runs.push(r.pos)
        // the run's partition and first offset (runW's first fields)
        const topic = nameR(r, f)
        g.labels.push(runLabel({ topic, partition: r.sv() }))
        r.ni64n()
        r.sv()
        g.offsets.push(r.ni64n()!)
      } else if (tag === EPISODE) {
        seqs.push(r.uv())
        const open = r.bool()
        epOpen.push(open)
        epKeys.push(joinKey(open, p, r.sv()))
        epAt.push(r.pos)
      } else if (tag === ID) input.idByProducer.set(BigInt(p), r.text())
      else {
        const label = nameR(r, f)
        commitTo(input, label, commitRecordR(r, f))
      }
    }
    // the episodes in the order they began, each to its key's group (a key no run has after those that have)
    const order = Array.from(seqs.keys()).sort((x, y) => seqs[x]! - seqs[y]!)
    const alone = new Map<string, KeyAt>()
    for (const i of order) {
      const k = epKeys[i]!
      let g = keys.get(k) ?? alone.get(k)
      if (g === undefined) {
        g = keyAt(epOpen[i]!)
        alone.set(k, g)
      }
      r.at(buf, epAt[i]!)
      if (r.bool()) g.says2 = true
      for (let m = r.uv(); m > 0; m--) {
        const l = nameR(r, f)
        g.listed.set(l, (g.listed.get(l) ?? 0) + 1)
      }
      g.episodes.push(r.pos)
    }
    input.groups = this.groupsOf(buf, [...keys.values(), ...alone.values()])
    return input
  }

  /** each key's runs and episodes read into objects when the join comes to it; a key paired by count, one episode at a time */
  private *groupsOf(buf: Buffer, keys: readonly KeyAt[]): Generator<KeyGroup> {
    const f = this.files
    const r = this.in
    for (const k of keys) {
      const version = versionFrom([k.tv2 ? 'TV2' : k.tv1 ? 'TV1' : null], k.says2, k.episodes.length)
      if (k.runs.length > 0) {
        const runsIn = new Map<string, number[]>()
        for (let i = 0; i < k.runs.length; i++) {
          const l = k.labels[i]!
          let at = runsIn.get(l)
          if (at === undefined) {
            at = []
            runsIn.set(l, at)
          }
          at.push(i)
        }
        const counts = new Map([...runsIn].map(([l, at]) => [l, at.length]))
        if (pairsByCount(k.open, version, k.runs.length, k.episodes.length, counts, k.listed)) {
          yield this.paired(buf, k, runsIn, version)
          continue
        }
      }
      const runs = new Array<PartitionRun>(k.runs.length)
      for (let i = 0; i < runs.length; i++) runs[i] = runR(r.at(buf, k.runs[i]!), f)
      const episodes = new Array<Episode>(k.episodes.length)
      for (let i = 0; i < episodes.length; i++) episodes[i] = episodeR(r.at(buf, k.episodes[i]!), f)
      yield { open: k.open, runs, episodes }
    }
  }

  /** a key paired by count: its episodes read one at a time, each partition's runs in first-offset order as asked for */
  private paired(
    buf: Buffer,
    k: KeyAt,
    runsIn: Map<string, number[]>,
    version: PairedKeyGroup['version'],
  ): PairedKeyGroup {
    const f = this.files
    const r = this.in
    const next = new Map<string, number>()
    for (const at of runsIn.values())
      sortSmall(at, (a, b) => (k.offsets[a]! < k.offsets[b]! ? -1 : k.offsets[a]! > k.offsets[b]! ? 1 : 0))
    return {
      version,
      episodes: (function* () {
        for (const at of k.episodes) yield episodeR(r.at(buf, at), f)
      })(),
      nextRun: (label) => {
        const at = runsIn.get(label)
        if (at === undefined) return undefined
        const i = next.get(label) ?? 0
        next.set(label, i + 1)
        return i < at.length ? runR(r.at(buf, k.runs[at[i]!]!), f) : undefined
      },
    }
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
    const n = starts === null ? Number.POSITIVE_INFINITY : starts.length
    for (let i = 0, at = 0; i < n && at < length; i++) {
      if (starts !== null) at = starts[i]!
      r.at(buf, at + LENGTH)
      at += LENGTH + buf.readUInt32LE(at)
      const tag = r.u8()
      const p = r.ni64n()!
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
    }
    return withEpisodes(input, eps)
  }
}

/** a share's runs and episodes of one join key: where their bodies are in the bucket's bytes */
interface KeyAt {
  open: boolean
  /** where each run's body starts, its partition, its first offset */
  runs: number[]
  labels: string[]
  offsets: Array<number | bigint>
  /** a run says TV1, TV2 (join.ts runVersion); an episode says 2 (saysVersion2) */
  tv1: boolean
  tv2: boolean
  says2: boolean
  /** where each episode's body starts; how many of them list each partition */
  episodes: number[]
  listed: Map<string, number>
}

const keyAt = (open: boolean): KeyAt => ({
  open,
  runs: [],
  labels: [],
  offsets: [],
  tv1: false,
  tv2: false,
  says2: false,
  episodes: [],
  listed: new Map(),
})

/** a run's version as its header holds it */
const VERSIONS = [null, 'TV1', 'TV2'] as const
const TV1 = 1
const TV2 = 2

/** a share of a bucket as takeGroups() gives it: its ids and commits, its runs and episodes by join key, read as asked */
export interface ShareGroups extends Pick<BucketInput, 'idByProducer' | 'commits'> {
  groups: Iterable<KeyGroup>
}

const emptyInput = (): BucketInput => ({ runs: [], episodes: [], idByProducer: new Map(), commits: new Map() })

function commitTo(input: Pick<BucketInput, 'commits'>, label: string, c: OffsetCommitRecord): void {
  let l = input.commits.get(label)
  if (l === undefined) {
    l = []
    input.commits.set(label, l)
  }
  l.push(c)
}

/** the episodes in the order they began (their cutter's sequence numbers) */
function withEpisodes(input: BucketInput, eps: Array<[number, Episode]>): BucketInput {
  input.episodes = eps.sort((x, y) => x[0] - y[0]).map((x) => x[1])
  return input
}
