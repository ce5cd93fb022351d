// The cleaner's key => newest offset map (Kafka's SkimpyOffsetMap): a fixed number of entries, log.cleaner.dedupe.buffer.size
// / log.cleaner.threads / 24 bytes (a 16-byte MD5 and an 8-byte offset) times log.cleaner.io.buffer.load.factor, beyond
// which the cleaner stops mapping and cleans only what it mapped (Cleaner.buildOffsetMapForSegment). Here a key is a
// 64-bit hash in typed arrays that grow with the distinct keys, so memory follows the keys, at most that capacity:
// two keys sharing a hash would count as one (p < 1e-6 for 5 million keys), which is why the count is exact "up to hash
// collisions", as Kafka's own is up to MD5's.
const EMPTY = 0

// the last key's hash, in two 32-bit halves (no array per call: the clean pass hashes every record)
let H = 0
let L = 0

function hash64 (key: Uint8Array): void {
  let a = 0x811c9dc5 ^ key.length
  let b = 0x9747b28c ^ key.length
  for (let i = 0; i < key.length; i++) {
    const c = key[i]!
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995); b ^= b >>> 13
  }
  H = fmix(a); L = fmix(b ^ a)
}

function fmix (h: number): number {
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16
  return h | 0
}

export class OffsetMap {
  private hi = new Int32Array(1024)
  private lo = new Int32Array(1024)
  private used = new Uint8Array(1024)
  private offsets = new Float64Array(1024)
  private counts = new Uint32Array(1024)
  size = 0
  /** Kafka's OffsetMap.latestOffset: the last offset of the last batch mapped */
  latestOffset = -1n

  /** @param maxEntries Kafka's maxDesiredMapSize (slots × load factor) */
  constructor (readonly maxEntries: number) {}

  private slot (h: number, l: number): number {
    const mask = this.used.length - 1
    let i = (l ^ Math.imul(h, 0x9e3779b1)) & mask
    while (this.used[i] !== EMPTY && (this.hi[i] !== h || this.lo[i] !== l)) i = (i + 1) & mask
    return i
  }

  /** put when there is room (buildOffsetMapForSegment: a full map refuses even a known key); false when full */
  put (key: Uint8Array, offset: bigint): boolean {
    if (this.size >= this.maxEntries) return false
    hash64(key)
    const h = H; const l = L
    let i = this.slot(h, l)
    if (this.used[i] === EMPTY) {
      if ((this.size + 1) * 4 > this.used.length * 3) { this.grow(); i = this.slot(h, l) }
      this.used[i] = 1; this.hi[i] = h; this.lo[i] = l; this.size++
    }
    this.offsets[i] = Number(offset)
    this.counts[i]!++
    return true
  }

  /** the key's slot, -1 when it is not mapped */
  find (key: Uint8Array): number {
    hash64(key)
    const i = this.slot(H, L)
    return this.used[i] === EMPTY ? -1 : i
  }

  /** the newest offset mapped at slot i (OffsetMap.get), -1 for no slot */
  offsetAt (i: number): number { return i < 0 ? -1 : this.offsets[i]! }

  /** the records mapped at slot i */
  countAt (i: number): number { return i < 0 ? 0 : this.counts[i]! }

  /** the n largest record counts per key, largest first */
  topCounts (n: number): number[] {
    const c = new Uint32Array(this.size)
    let k = 0
    for (let i = 0; i < this.used.length; i++) if (this.used[i] !== EMPTY) c[k++] = this.counts[i]!
    return [...c.sort().subarray(Math.max(0, k - n)).reverse()]
  }

  /** bytes held by the tables */
  get bytes (): number { return this.used.length * 25 }

  private grow (): void {
    const { hi, lo, used, offsets, counts } = this
    const n = used.length * 2
    this.hi = new Int32Array(n); this.lo = new Int32Array(n); this.used = new Uint8Array(n)
    this.offsets = new Float64Array(n); this.counts = new Uint32Array(n)
    for (let i = 0; i < used.length; i++) {
      if (used[i] === EMPTY) continue
      const j = this.slot(hi[i]!, lo[i]!)
      this.used[j] = 1; this.hi[j] = hi[i]!; this.lo[j] = lo[i]!; this.offsets[j] = offsets[i]!; this.counts[j] = counts[i]!
    }
  }
}
