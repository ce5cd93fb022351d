// The buckets of `transactions`' hash join by producer id (scan/transactions-stream.ts): every run, coordinator
// episode, producer -> transactional id record and transactional offset commit goes to the bucket of its producer
// id, in memory when the input is small, else one temp file each under os.tmpdir() (io/spill.ts), the values as
// analysis/transaction-join/wire.ts writes them.
import type { Episode, OffsetCommitRecord, PartitionRun } from '../analysis/transaction-join/types.js'
import type { FileTable } from '../analysis/transaction-join/wire.js'
import { commitRecordR, commitRecordW, episodeR, episodeW, runR, runW } from '../analysis/transaction-join/wire.js'
import { sizeOf } from '../io/dir-listing.js'
import type { PartitionDir } from '../io/discover.js'
import type { SpillDir } from '../io/spill.js'

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

/** the buckets: arrays when the input is small, else one temp file each */
export class Buckets {
  private readonly mem: Item[][] | null

  constructor(
    readonly n: number,
    readonly spill: SpillDir | null,
    readonly files: FileTable,
  ) {
    this.mem = spill === null ? Array.from({ length: n }, () => []) : null
  }

  of(pid: bigint): number {
    const n = BigInt(this.n)
    return Number(((pid % n) + n) % n)
  }

  put(pid: bigint, item: Item): void {
    const b = this.of(pid)
    if (this.mem !== null) {
      this.mem[b]!.push(item)
      return
    }
    const f = this.files
    const w =
      item[0] === 'r'
        ? ['r', runW(item[1], f)]
        : item[0] === 'e'
          ? ['e', item[1], episodeW(item[2], f)]
          : item[0] === 'i'
            ? ['i', String(item[1]), item[2]]
            : ['c', item[1], commitRecordW(item[2], f)]
    this.spill!.append(`b${b}`, JSON.stringify(w))
  }

  /** bucket b's items in the order put, then forgotten */
  *take(b: number): Generator<Item> {
    if (this.mem !== null) {
      const l = this.mem[b]!
      this.mem[b] = []
      yield* l
      return
    }
    const f = this.files
    for (const line of this.spill!.lines(`b${b}`)) {
      const w = JSON.parse(line) as [string, ...unknown[]]
      if (w[0] === 'r') yield ['r', runR(w[1] as unknown[], f)]
      else if (w[0] === 'e') yield ['e', w[1] as number, episodeR(w[2] as unknown[], f)]
      else if (w[0] === 'i') yield ['i', BigInt(w[1] as string), w[2] as string]
      else yield ['c', w[1] as string, commitRecordR(w[2] as unknown[], f)]
    }
    this.spill!.remove(`b${b}`)
  }
}
