// The cleaner's key => newest offset map (Kafka's SkimpyOffsetMap): a fixed number of entries, log.cleaner.dedupe.buffer.size
// / log.cleaner.threads / 24 bytes (a 16-byte MD5 and an 8-byte offset) times log.cleaner.io.buffer.load.factor, beyond
// which the cleaner stops mapping and cleans only what it mapped (Cleaner.buildOffsetMapForSegment). Here one open-addressing
// table sized once, before the record pass, for the records the dirty section's batch headers declare (at most that
// capacity; a batch holding more than its header says has the map built again at full capacity), so it is never copied
// to a larger one while it fills: 9 bytes a slot (a 39-bit hash fingerprint and a 32-bit offset delta), 10 with the
// counts --top needs (a byte, made at the first key seen twice; the keys of 255 records or more in a Map, at most one
// per 255 records), 0.9 full at most
// (Kafka's load factor): 48 MiB (53 with counts) at Kafka's default capacity of 5,033,164 keys. Two keys whose fingerprints meet in a probe would count as one (the home slot comes from other bits
// of the hash: about 1e-4 at 5 million distinct keys, 1e-3 over 50 million records of them): the count is exact up
// to hash collisions, as Kafka's own is up to MD5's.

// the last key's hash in two 32-bit halves, the low one odd (0 marks an empty slot); no array per call
let H = 0
let L = 0

function hash64(key: Uint8Array): void {
  let a = 0x811c9dc5 ^ key.length
  let b = 0x9747b28c ^ key.length
  for (let i = 0; i < key.length; i++) {
    const c = key[i]!
    a = Math.imul(a ^ c, 0x01000193)
    b = Math.imul(b ^ c, 0x5bd1e995)
    b ^= b >>> 13
  }
  H = fmix(a)
  L = fmix(b ^ a) | 1
}

function fmix(h: number): number {
  h ^= h >>> 16
  h = Math.imul(h, 0x85ebca6b)
  h ^= h >>> 13
  h = Math.imul(h, 0xc2b2ae35)
  h ^= h >>> 16
  return h | 0
}

/** the table's fullest load: linear probing averages about 5.5 slots a lookup */
const LOAD = 0.9
const MIN_SLOTS = 1024
const TWO_32 = 4294967296
/** a key's count at or past this is kept in the overflow map */
const COUNT_CAP = 0xff

export class OffsetMap {
  /** low 32 bits of the fingerprint, odd; 0 = empty */
  private lo: Int32Array
  /** 8 more bits of it */
  private hi: Uint8Array
  /** offset - base, low 32 bits */
  private deltas: Uint32Array
  /** its high 32 bits, made when a delta first needs them */
  private deltasHi: Uint32Array | null = null
  /** with counts: made at the first key put twice (until then every mapped key counts 1: distinct keys need none) */
  private counts: Uint8Array | null = null
  private readonly withCounts: boolean
  /** counts of COUNT_CAP or more, by slot */
  private readonly bigCounts = new Map<number, number>()
  private readonly maxSlots: number
  size = 0
  /** put refused a key because the table was sized for fewer keys than the batches hold (never at full capacity) */
  undersized = false
  /** Kafka's OffsetMap.latestOffset: the last offset of the last batch mapped */
  latestOffset = -1n
  /** with record flags: one bit a slot, set when the key's newest mapped record is a tombstone */
  private readonly tombs: Uint8Array | null
  /** with record flags: a tombstone slot's batch delete horizon, when its batch has one (cleaned before: rare) */
  private readonly horizons = new Map<number, bigint>()
  /** with record flags: tombstones a newer record of their key replaced while the map filled */
  supersededTombstones = 0

  /**
   * @param maxEntries Kafka's maxDesiredMapSize (slots × load factor)
   * @param base the first dirty offset (offsets are kept relative to it)
   * @param expected the records the dirty batches declare: the table is sized for min(expected, maxEntries) keys (a
   *   table of this size is never copied to a larger one, which would hold both at once)
   * @param recordFlags keep whether each key's newest record is a tombstone (and its batch's delete horizon), so
   *   that what a clean keeps of the mapped records is known from the map alone (retained)
   */
  constructor(
    readonly maxEntries: number,
    private readonly base: bigint,
    withCounts: boolean,
    expected = maxEntries,
    recordFlags = false,
  ) {
    this.maxSlots = slotsFor(maxEntries)
    const n = slotsFor(Math.min(Math.max(expected, 0), maxEntries))
    this.lo = new Int32Array(n)
    this.hi = new Uint8Array(n)
    this.deltas = new Uint32Array(n)
    this.withCounts = withCounts
    this.tombs = recordFlags ? new Uint8Array((n + 7) >>> 3) : null
  }

  private slot(h: number, l: number): number {
    const n = this.lo.length
    const f = h & 0xff
    // the home slot from the hash's high bits (any table length); the fingerprint from the other bits
    let i = Math.floor(((h >>> 0) * n) / TWO_32)
    while (this.lo[i] !== 0 && (this.lo[i] !== l || this.hi[i] !== f)) if (++i === n) i = 0
    return i
  }

  /** put when there is room (buildOffsetMapForSegment: a full map refuses even a known key); false when full or undersized */
  put(key: Uint8Array, offset: bigint, tombstone = false, horizon: bigint | null = null): boolean {
    if (this.size >= this.maxEntries) return false
    hash64(key)
    const h = H
    const l = L
    const i = this.slot(h, l)
    const added = this.lo[i] === 0
    if (added) {
      // the headers declared fewer records than the batches hold: the caller maps again into a table of full capacity
      if (this.size + 1 > this.lo.length * LOAD && this.lo.length < this.maxSlots) {
        this.undersized = true
        return false
      }
      this.lo[i] = l
      this.hi[i] = h & 0xff
      this.size++
    } else if (this.tombs !== null && (this.tombs[i >>> 3]! & (1 << (i & 7))) !== 0) this.supersededTombstones++
    if (this.tombs !== null) {
      if (tombstone) this.tombs[i >>> 3]! |= 1 << (i & 7)
      else this.tombs[i >>> 3]! &= ~(1 << (i & 7))
      if (tombstone && horizon !== null) this.horizons.set(i, horizon)
      else this.horizons.delete(i)
    }
    const d = offset - this.base
    const dn = Number(d)
    if (dn < TWO_32) {
      this.deltas[i] = dn
      if (this.deltasHi !== null) this.deltasHi[i] = 0
    } else {
      this.deltasHi ??= new Uint32Array(this.lo.length)
      this.deltas[i] = Number(d & 0xffffffffn)
      this.deltasHi[i] = Number(d >> 32n)
    }
    const c = this.withCounts && (!added || this.counts !== null) ? (this.counts ?? this.madeCounts()) : null
    if (c !== null) {
      if (c[i]! < COUNT_CAP - 1) c[i]!++
      else if (c[i] === COUNT_CAP - 1) {
        c[i] = COUNT_CAP
        this.bigCounts.set(i, COUNT_CAP)
      } else this.bigCounts.set(i, this.bigCounts.get(i)! + 1)
    }
    return true
  }

  /** the counts table, every key mapped so far at 1 */
  private madeCounts(): Uint8Array {
    const c = new Uint8Array(this.lo.length)
    for (let j = 0; j < c.length; j++) if (this.lo[j] !== 0) c[j] = 1
    this.counts = c
    return c
  }

  /** the key's slot, -1 when it is not mapped */
  find(key: Uint8Array): number {
    hash64(key)
    const i = this.slot(H, L)
    return this.lo[i] === 0 ? -1 : i
  }

  /** whether the record at `offset` is its key's newest mapped one or newer (Cleaner.shouldRetainRecord: offset >= map.get(key)) */
  isNewest(slot: number, offset: bigint): boolean {
    if (slot < 0) return true
    const hi = this.deltasHi?.[slot] ?? 0
    return (
      offset >= this.base + (hi === 0 ? BigInt(this.deltas[slot]!) : (BigInt(hi) << 32n) + BigInt(this.deltas[slot]!))
    )
  }

  /** the records mapped at slot i (0 without counts) */
  countAt(i: number): number {
    if (i < 0 || !this.withCounts) return 0
    if (this.counts === null) return this.lo[i] === 0 ? 0 : 1
    const c = this.counts[i]!
    return c === COUNT_CAP ? this.bigCounts.get(i)! : c
  }

  /** the n largest record counts per key, largest first */
  topCounts(n: number): number[] {
    if (!this.withCounts || n <= 0) return []
    // the n largest so far, ascending: a count enters when it beats the smallest of them
    const top: number[] = []
    for (let i = 0; i < this.lo.length; i++) {
      if (this.lo[i] === 0) continue
      const c = this.countAt(i)
      if (top.length === n && c <= top[0]!) continue
      let j = top.length === n ? 0 : top.length
      if (top.length === n) {
        while (j + 1 < n && top[j + 1]! < c) {
          top[j] = top[j + 1]!
          j++
        }
      } else {
        top.push(c)
        while (j > 0 && top[j - 1]! > c) {
          top[j] = top[j - 1]!
          j--
        }
      }
      top[j] = c
    }
    return top.reverse()
  }

  /** with record flags: each mapped key's newest record, a tombstone (with its batch's delete horizon) or not */
  retained(visit: (tombstone: boolean, horizon: bigint | null) => void): void {
    const t = this.tombs
    if (t === null) return
    for (let i = 0; i < this.lo.length; i++) {
      if (this.lo[i] === 0) continue
      const tomb = (t[i >>> 3]! & (1 << (i & 7))) !== 0
      visit(tomb, tomb ? (this.horizons.get(i) ?? null) : null)
    }
  }

  /** bytes held by the tables */
  get bytes(): number {
    return (
      this.lo.byteLength +
      this.hi.byteLength +
      this.deltas.byteLength +
      (this.deltasHi?.byteLength ?? 0) +
      (this.counts?.byteLength ?? 0) +
      (this.tombs?.byteLength ?? 0)
    )
  }
}

/** slots for k keys at LOAD */
function slotsFor(k: number): number {
  return Math.max(MIN_SLOTS, Math.ceil(k / LOAD))
}
