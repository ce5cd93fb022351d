// Producer maps that stay small however many producers a partition had.
import type { I64 } from './i64.js'
import { toI64 } from './i64.js'

export interface ProducerIntsParts { keys: Float64Array<ArrayBuffer>, vals: Int32Array<ArrayBuffer>, used: Uint8Array<ArrayBuffer>, n: number, big: Map<bigint, number> }

/**
 * Producer id → int32, as an open-addressing hash table in typed arrays (12 bytes a slot): one entry per
 * producer that ever wrote a marker, without a heap object each (a Map of 10^5 producers made the heap
 * grow by tens of MB). Producer ids outside [-2^53, 2^53) (none in practice) go to a Map.
 */
export class ProducerInts {
  private keys = new Float64Array(1024)
  private vals = new Int32Array(1024)
  private used = new Uint8Array(1024)
  private n = 0
  private readonly big = new Map<bigint, number>()

  get size (): number { return this.n + this.big.size }

  private slot (k: number, keys: Float64Array, used: Uint8Array): number {
    const mask = keys.length - 1
    let h = Math.imul((k >>> 0) ^ Math.imul(Math.floor(k / 4294967296) | 0, 0x9e3779b1), 0x85ebca6b)
    h = (h ^ (h >>> 15)) & mask
    while (used[h] === 1 && keys[h] !== k) h = (h + 1) & mask
    return h
  }

  get (pid: I64): number | undefined {
    const k = toI64(pid)
    if (typeof k === 'bigint') return this.big.get(k)
    const i = this.slot(k, this.keys, this.used)
    return this.used[i] === 1 ? this.vals[i] : undefined
  }

  set (pid: I64, v: number): void {
    const k = toI64(pid)
    if (typeof k === 'bigint') { this.big.set(k, v); return }
    let i = this.slot(k, this.keys, this.used)
    if (this.used[i] === 0) {
      if ((this.n + 1) * 2 > this.keys.length) { this.grow(); i = this.slot(k, this.keys, this.used) }
      this.used[i] = 1
      this.keys[i] = k
      this.n++
    }
    this.vals[i] = v
  }

  /** the table as plain data, to post to another thread (a class instance loses its methods in the clone) */
  toParts (): ProducerIntsParts { return { keys: this.keys, vals: this.vals, used: this.used, n: this.n, big: this.big } }

  static fromParts (p: ProducerIntsParts): ProducerInts {
    const t = new ProducerInts()
    t.keys = p.keys; t.vals = p.vals; t.used = p.used; t.n = p.n
    for (const [k, v] of p.big) t.big.set(k, v)
    return t
  }

  private grow (): void {
    const { keys, vals, used } = this
    const cap = keys.length * 2
    this.keys = new Float64Array(cap); this.vals = new Int32Array(cap); this.used = new Uint8Array(cap)
    for (let j = 0; j < keys.length; j++) {
      if (used[j] === 0) continue
      const i = this.slot(keys[j]!, this.keys, this.used)
      this.used[i] = 1; this.keys[i] = keys[j]!; this.vals[i] = vals[j]!
    }
  }
}
