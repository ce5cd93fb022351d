// The cleaner's key => newest offset map (Kafka's SkimpyOffsetMap): a fixed number of entries, log.cleaner.dedupe.buffer.size
// / log.cleaner.threads / 24 bytes (a 16-byte MD5 and an 8-byte offset) times log.cleaner.io.buffer.load.factor, beyond
// which the cleaner stops mapping and cleans only what it mapped (Cleaner.buildOffsetMapForSegment). Here a key is a
// 63-bit hash in typed arrays that grow with the distinct keys (12 bytes a slot, 16 with the counts --top needs), so
// memory follows the keys, at most that capacity. Two keys sharing a hash would count as one (p < 1e-6 for 5 million
// keys): the count is exact up to hash collisions, as Kafka's own is up to MD5's.

// the last key's hash in two 32-bit halves, the low one odd (0 marks an empty slot); no array per call
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
  H = fmix(a); L = fmix(b ^ a) | 1
}

function fmix (h: number): number {
  h ^= h >>> 16; h = Math.imul(h, 0x85ebca6b); h ^= h >>> 13; h = Math.imul(h, 0xc2b2ae35); h ^= h >>> 16
  return h | 0
}

const DELTA_LIMIT = 0xffffffff

export class OffsetMap {
  private hi = new Int32Array(1024)
  private lo = new Int32Array(1024)
  /** offset - base; Float64 once a delta does not fit 32 bits */
  private deltas: Uint32Array | Float64Array = new Uint32Array(1024)
  private counts: Uint32Array | null
  size = 0
  /** Kafka's OffsetMap.latestOffset: the last offset of the last batch mapped */
  latestOffset = -1n

  /**
   * @param maxEntries Kafka's maxDesiredMapSize (slots × load factor)
   * @param base the first dirty offset (offsets are kept relative to it)
   */
  constructor (readonly maxEntries: number, private readonly base: bigint, withCounts: boolean) {
    this.counts = withCounts ? new Uint32Array(1024) : null
  }

  private slot (h: number, l: number): number {
    const mask = this.lo.length - 1
    let i = (l ^ Math.imul(h, 0x9e3779b1)) & mask
    while (this.lo[i] !== 0 && (this.hi[i] !== h || this.lo[i] !== l)) i = (i + 1) & mask
    return i
  }

  /** put when there is room (buildOffsetMapForSegment: a full map refuses even a known key); false when full */
  put (key: Uint8Array, offset: bigint): boolean {
    if (this.size >= this.maxEntries) return false
    hash64(key)
    const h = H; const l = L
    let i = this.slot(h, l)
    if (this.lo[i] === 0) {
      if ((this.size + 1) * 4 > this.lo.length * 3) { this.grow(); i = this.slot(h, l) }
      this.hi[i] = h; this.lo[i] = l; this.size++
    }
    const d = Number(offset - this.base)
    if (d > DELTA_LIMIT && this.deltas instanceof Uint32Array) this.deltas = Float64Array.from(this.deltas)
    this.deltas[i] = d
    if (this.counts !== null) this.counts[i]!++
    return true
  }

  /** the key's slot, -1 when it is not mapped */
  find (key: Uint8Array): number {
    hash64(key)
    const i = this.slot(H, L)
    return this.lo[i] === 0 ? -1 : i
  }

  /** whether the record at `offset` is its key's newest mapped one or newer (Cleaner.shouldRetainRecord: offset >= map.get(key)) */
  isNewest (slot: number, offset: bigint): boolean {
    return slot < 0 || offset >= this.base + BigInt(this.deltas[slot]!)
  }

  /** the records mapped at slot i (0 without counts) */
  countAt (i: number): number { return i < 0 || this.counts === null ? 0 : this.counts[i]! }

  /** the n largest record counts per key, largest first */
  topCounts (n: number): number[] {
    if (this.counts === null) return []
    const c = new Uint32Array(this.size)
    let k = 0
    for (let i = 0; i < this.lo.length; i++) if (this.lo[i] !== 0) c[k++] = this.counts[i]!
    return [...c.sort().subarray(Math.max(0, k - n)).reverse()]
  }

  /** bytes held by the tables */
  get bytes (): number { return this.lo.length * (8 + this.deltas.BYTES_PER_ELEMENT + (this.counts === null ? 0 : 4)) }

  private grow (): void {
    const { hi, lo, deltas, counts } = this
    const n = lo.length * 2
    this.hi = new Int32Array(n); this.lo = new Int32Array(n)
    this.deltas = deltas instanceof Uint32Array ? new Uint32Array(n) : new Float64Array(n)
    this.counts = counts === null ? null : new Uint32Array(n)
    for (let i = 0; i < lo.length; i++) {
      if (lo[i] === 0) continue
      const j = this.slot(hi[i]!, lo[i]!)
      this.hi[j] = hi[i]!; this.lo[j] = lo[i]!; this.deltas[j] = deltas[i]!
      if (counts !== null) this.counts![j] = counts[i]!
    }
  }
}
