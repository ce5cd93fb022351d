// Producer maps that stay small however many producers a partition had.
import type { I64 } from '../bytes/int64.js'
import { toI64 } from '../bytes/int64.js'

export interface ProducerIntsParts {
  slots: number
  buckets: Bucket[]
  directory: Int32Array<ArrayBuffer>
  depth: number
  maxDepth: number
  n: number
  big: Map<bigint, number>
  overflow: Map<number, number>
}

/** one page of the table: an empty slot's key is NaN */
interface Bucket {
  keys: Float64Array<ArrayBuffer>
  vals: Int32Array<ArrayBuffer>
  n: number
  depth: number
}

/** a bucket splits when more than 3/4 of its slots are used */
const MAX_LOAD = 0.75
/**
 * deepest split (a directory of 2^20 entries, 4 MiB): ids crafted to share their hash's top bits fill a
 * bucket that cannot split further; they go to a Map
 */
const MAX_DEPTH = 20
/** the first bucket's slots (192 bytes) */
const FIRST_SLOTS = 16

/**
 * Producer id → int32, without a heap object per producer (a Map of 10^5 producers made the heap grow by tens
 * of MB): one entry per producer that ever wrote a marker (lso keeps it; 1 M producer ids in one partition is
 * the case to hold). Extendible hashing: fixed-size buckets of typed arrays (12 bytes a slot, linear probing
 * inside), found through a directory by the hash's top bits; a full bucket splits in two. So growing never
 * copies the whole table: the one-array table it replaces doubled and rehashed, and the arrays it let go
 * were freed only at V8's next mark-compact, which a small heap rarely needs: lso on 1 M producers peaked
 * at 124-127 MiB, 97 with a forced collection after each growth. Producer ids outside [-2^53, 2^53) (none in
 * practice) go to a Map.
 */
export class ProducerInts {
  private buckets: Bucket[]
  /** bucket index by the hash's top `depth` bits */
  private directory: Int32Array<ArrayBuffer>
  private depth = 0
  private n = 0
  private readonly big = new Map<bigint, number>()
  private readonly overflow = new Map<number, number>()
  /** where a splitting bucket's entries wait while they are redistributed (made at the first split) */
  private scratch: Bucket | undefined

  /**
   * `slots` a bucket, a power of two; `maxDepth` (tests make both small, to split often and to overflow). The
   * first bucket starts at FIRST_SLOTS and doubles up to `slots` before any split: most partitions have a few
   * producers, and lso over 3,000 partitions held 295 MB of 96 KiB first buckets.
   */
  constructor(
    private readonly slots = 4096,
    private readonly maxDepth = MAX_DEPTH,
  ) {
    this.buckets = [newBucket(Math.min(slots, FIRST_SLOTS), 0)]
    this.directory = new Int32Array(1)
  }

  get size(): number {
    return this.n + this.big.size + this.overflow.size
  }

  get(pid: I64): number | undefined {
    const k = toI64(pid)
    if (typeof k === 'bigint') return this.big.get(k)
    const h = hash(k)
    const b = this.bucketOf(h)
    const i = slot(b, k, h)
    return b.keys[i] === k ? b.vals[i] : this.overflow.get(k)
  }

  set(pid: I64, v: number): void {
    const k = toI64(pid)
    if (typeof k === 'bigint') {
      this.big.set(k, v)
      return
    }
    const h = hash(k)
    let b = this.bucketOf(h)
    let i = slot(b, k, h)
    if (b.keys[i] !== k) {
      while (b.n + 1 > b.keys.length * MAX_LOAD) {
        if (b.keys.length < this.slots) {
          b = this.grow(b)
          continue
        }
        if (b.depth >= this.maxDepth || this.overflow.has(k)) {
          this.overflow.set(k, v)
          return
        }
        this.split(h)
        b = this.bucketOf(h)
      }
      i = slot(b, k, h)
      b.keys[i] = k
      b.n++
      this.n++
    }
    b.vals[i] = v
  }

  /** the table as plain data, to post to another thread (a class instance loses its methods in the clone) */
  toParts(): ProducerIntsParts {
    return {
      slots: this.slots,
      buckets: this.buckets,
      directory: this.directory,
      depth: this.depth,
      maxDepth: this.maxDepth,
      n: this.n,
      big: this.big,
      overflow: this.overflow,
    }
  }

  static fromParts(p: ProducerIntsParts): ProducerInts {
    const t = new ProducerInts(p.slots, p.maxDepth)
    t.buckets = p.buckets
    t.directory = p.directory
    t.depth = p.depth
    t.n = p.n
    for (const [k, v] of p.big) t.big.set(k, v)
    for (const [k, v] of p.overflow) t.overflow.set(k, v)
    return t
  }

  private bucketOf(h: number): Bucket {
    return this.buckets[this.directory[this.depth === 0 ? 0 : h >>> (32 - this.depth)]!]!
  }

  /** the only bucket, below full size: twice its slots, its entries rehashed (before the first split only) */
  private grow(b: Bucket): Bucket {
    const bigger = newBucket(b.keys.length * 2, b.depth)
    for (let j = 0; j < b.keys.length; j++) {
      const k = b.keys[j]!
      if (k !== k) continue // NaN: empty
      const i = slot(bigger, k, hash(k))
      bigger.keys[i] = k
      bigger.vals[i] = b.vals[j]!
      bigger.n++
    }
    this.buckets[this.buckets.indexOf(b)] = bigger
    return bigger
  }

  /** split the bucket that hash `h` goes to by one more top bit (doubling the directory when it needs the bit) */
  private split(h: number): void {
    const index = this.directory[this.depth === 0 ? 0 : h >>> (32 - this.depth)]!
    const old = this.buckets[index]!
    if (old.depth === this.depth) {
      const dir = new Int32Array(this.directory.length * 2)
      for (let j = 0; j < dir.length; j++) dir[j] = this.directory[j >>> 1]!
      this.directory = dir
      this.depth++
    }
    const at = h >>> (32 - this.depth)
    const bit = 31 - old.depth // the new bucket depth's bit, counted from the top
    // the old bucket is emptied and kept as the 0 half: a split allocates one bucket and frees none
    this.scratch ??= newBucket(this.slots, 0)
    this.scratch.keys.set(old.keys)
    this.scratch.vals.set(old.vals)
    old.keys.fill(Number.NaN)
    old.n = 0
    old.depth++
    const one = newBucket(this.slots, old.depth)
    const from = this.scratch
    for (let j = 0; j < from.keys.length; j++) {
      const k = from.keys[j]!
      if (k !== k) continue // NaN: empty
      const kh = hash(k)
      const to = ((kh >>> bit) & 1) === 0 ? old : one
      const i = slot(to, k, kh)
      to.keys[i] = k
      to.vals[i] = from.vals[j]!
      to.n++
    }
    const oneIndex = this.buckets.push(one) - 1
    // the directory entries of the old bucket: those whose new bit is 1 go to `one`
    const span = 1 << (this.depth - old.depth + 1) // entries that pointed to the old bucket
    const first = (at >>> (this.depth - old.depth + 1)) << (this.depth - old.depth + 1)
    for (let j = first + span / 2; j < first + span; j++) this.directory[j] = oneIndex
  }
}

function newBucket(slots: number, depth: number): Bucket {
  return { keys: new Float64Array(slots).fill(Number.NaN), vals: new Int32Array(slots), n: 0, depth }
}

function hash(k: number): number {
  const h = Math.imul((k >>> 0) ^ Math.imul(Math.floor(k / 4294967296) | 0, 0x9e3779b1), 0x85ebca6b)
  return (h ^ (h >>> 15)) >>> 0
}

/** the slot of key `k` in `b`, or the empty slot where it would go (linear probing from the hash's low bits) */
function slot(b: Bucket, k: number, h: number): number {
  const mask = b.keys.length - 1
  let i = h & mask
  for (let x = b.keys[i]!; x === x && x !== k; x = b.keys[i]!) i = (i + 1) & mask // x === x: not NaN, used
  return i
}
