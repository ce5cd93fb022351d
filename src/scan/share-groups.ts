// A share of a bucket of transactions' join (scan/transaction-buckets.ts) as the join by key takes it: the records'
// tags, each record's header (its producer id, and for runs and episodes the join key, version and partitions the
// join asks of them before it reads one: join.ts pairsByCount), and the share's runs and episodes indexed by join
// key, read into objects one key at a time as the join asks for the next.
import type { BucketInput } from '../analysis/transaction-join/bucket-join.js'
import type { KeyGroup, PairedKeyGroup } from '../analysis/transaction-join/join.js'
import { joinKey, pairsByCount, runLabel, sharedEpoch, versionFrom } from '../analysis/transaction-join/join.js'
import type { Episode, OffsetCommitRecord, PartitionRun } from '../analysis/transaction-join/types.js'
import type { FileTable } from '../analysis/transaction-join/wire.js'
import { sortSmall } from '../analysis/small-sort.js'
import type { ByteIn } from '../io/spill-bytes.js'
import { LENGTH } from '../io/spill.js'
import { commitRecordR, episodeR, nameR, runR } from './transaction-wire.js'

/** the records' tags */
export const RUN = 0
export const EPISODE = 1
export const ID = 2
export const COMMIT = 3

/** a run's version as its header holds it */
export const VERSIONS = [null, 'TV1', 'TV2'] as const
const TV1 = 1
const TV2 = 2

/** `fn` told each record starting at `starts` (every record of buf[0, length) when null), `r` past its tag and producer id */
export function eachRecord(
  buf: Buffer,
  length: number,
  starts: readonly number[] | null,
  r: ByteIn,
  fn: (tag: number, pid: number | bigint) => void,
): void {
  const n = starts === null ? Number.POSITIVE_INFINITY : starts.length
  for (let i = 0, at = 0; i < n && at < length; i++) {
    if (starts !== null) at = starts[i]!
    r.at(buf, at + LENGTH)
    at += LENGTH + buf.readUInt32LE(at)
    const tag = r.u8()
    fn(tag, r.ni64n()!)
  }
}

/** a share's runs and episodes of one join key: where they are in the bucket's bytes */
interface KeyAt {
  open: boolean
  /** a run says TV1, TV2 (join.ts runVersion); an episode says 2 (saysVersion2) */
  tv1: boolean
  tv2: boolean
  says2: boolean
  /** where each run's body starts */
  runs: number[]
  /** where each episode's partitions start (its body after them) */
  episodes: number[]
}

const keyAt = (open: boolean): KeyAt => ({ open, tv1: false, tv2: false, says2: false, runs: [], episodes: [] })

/** a share of a bucket as takeGroups() gives it: its ids and commits, its runs and episodes by join key, read as asked */
export interface ShareGroups extends Pick<BucketInput, 'idByProducer' | 'commits'> {
  groups: Iterable<KeyGroup>
}

/** the ids and commits of the records starting at `starts` (all when null) read, their runs and episodes indexed by join key */
export function shareGroups(
  buf: Buffer,
  length: number,
  starts: readonly number[] | null,
  f: FileTable,
  r: ByteIn,
): ShareGroups {
  const input: ShareGroups = { idByProducer: new Map(), commits: new Map(), groups: [] }
  // per join key its runs and episodes; the keys of runs first, in the order read
  const keys = new Map<string, KeyAt>()
  const seqs: number[] = []
  const epKeys: string[] = []
  const epOpen: boolean[] = []
  const epAt: number[] = []
  eachRecord(buf, length, starts, r, (tag, p) => {
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
  })
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
    g.episodes.push(r.pos)
  }
  input.groups = groupsOf(buf, [...keys.values(), ...alone.values()], f, r)
  return input
}

/** each key's runs and episodes read into objects when the join comes to it; a key paired by count, one episode at a time */
function* groupsOf(buf: Buffer, keys: readonly KeyAt[], f: FileTable, r: ByteIn): Generator<KeyGroup> {
  for (const k of keys) {
    const version = versionFrom([k.tv2 ? 'TV2' : k.tv1 ? 'TV1' : null], k.says2, k.episodes.length)
    if (k.runs.length > 0 && sharedEpoch(k.open, version, k.runs.length, k.episodes.length)) {
      const p = pairing(buf, k, f, r)
      if (p !== null) {
        yield paired(buf, k, p, version, f, r)
        continue
      }
    }
    const runs = new Array<PartitionRun>(k.runs.length)
    for (let i = 0; i < runs.length; i++) runs[i] = runR(r.at(buf, k.runs[i]!), f)
    const episodes = new Array<Episode>(k.episodes.length)
    for (let i = 0; i < episodes.length; i++) episodes[i] = episodeR(pastPartitions(r.at(buf, k.episodes[i]!), f), f)
    yield { open: k.open, runs, episodes }
  }
}

/** an episode's header read past its partitions */
function pastPartitions(r: ByteIn, f: FileTable): ByteIn {
  for (let m = r.uv(); m > 0; m--) nameR(r, f)
  return r
}

/** a shared-epoch key's runs by partition (their indexes, by first offset) when they pair by count (join.ts pairsByCount), else null */
function pairing(buf: Buffer, k: KeyAt, f: FileTable, r: ByteIn): Map<string, number[]> | null {
  const runsIn = new Map<string, number[]>()
  const offsets = new Array<number | bigint>(k.runs.length)
  for (let i = 0; i < k.runs.length; i++) {
    // the run's partition and first offset (runW's first fields)
    r.at(buf, k.runs[i]!)
    const topic = nameR(r, f)
    const l = runLabel({ topic, partition: r.sv() })
    r.ni64n()
    r.sv()
    offsets[i] = r.ni64n()!
    let at = runsIn.get(l)
    if (at === undefined) {
      at = []
      runsIn.set(l, at)
    }
    at.push(i)
  }
  const listed = new Map<string, number>()
  for (const at of k.episodes) {
    r.at(buf, at)
    for (let m = r.uv(); m > 0; m--) {
      const l = nameR(r, f)
      listed.set(l, (listed.get(l) ?? 0) + 1)
    }
  }
  const counts = new Map<string, number>()
  for (const [l, at] of runsIn) counts.set(l, at.length)
  if (!pairsByCount(counts, listed)) return null
  for (const at of runsIn.values())
    sortSmall(at, (a, b) => (offsets[a]! < offsets[b]! ? -1 : offsets[a]! > offsets[b]! ? 1 : 0))
  return runsIn
}

/** a key paired by count: its episodes read one at a time, each partition's runs in first-offset order as asked for */
function paired(
  buf: Buffer,
  k: KeyAt,
  runsIn: Map<string, number[]>,
  version: PairedKeyGroup['version'],
  f: FileTable,
  r: ByteIn,
): PairedKeyGroup {
  const next = new Map<string, number>()
  return {
    version,
    episodes: (function* () {
      for (const at of k.episodes) yield episodeR(pastPartitions(r.at(buf, at), f), f)
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

/** a commit to its __consumer_offsets partition's list */
export function commitTo(input: Pick<BucketInput, 'commits'>, label: string, c: OffsetCommitRecord): void {
  let l = input.commits.get(label)
  if (l === undefined) {
    l = []
    input.commits.set(label, l)
  }
  l.push(c)
}
