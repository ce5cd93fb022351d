// A Map whose deleted keys are marked gone and swept in bulk. V8 shrinks a Map's table as soon as a delete leaves it
// less than a quarter full, and grows it again at the next inserts: a map of the transactions open in a partition,
// filled and emptied by turns as each producer's marker comes, made a new table every few transactions (at
// scale-100000 some 45 MB of garbage for each such map, measured with V8's sampling heap profiler).

/** what a deleted key holds until the sweep */
const GONE: unique symbol = Symbol('gone')
/** gone keys kept at least up to this many before a sweep */
const SWEEP_AT = 1024

/** get/has/set/delete/clear as a Map's; at most max(SWEEP_AT, the keys present) gone keys are held besides */
export class TombstoneMap<K, V> {
  private readonly m = new Map<K, V | typeof GONE>()
  private gone = 0

  get(k: K): V | undefined {
    const v = this.m.get(k)
    return v === GONE ? undefined : v
  }

  has(k: K): boolean {
    const v = this.m.get(k)
    return v !== undefined && v !== GONE
  }

  set(k: K, v: V): void {
    if (this.m.get(k) === GONE) this.gone--
    this.m.set(k, v)
  }

  delete(k: K): void {
    const v = this.m.get(k)
    if (v === undefined || v === GONE) return
    this.m.set(k, GONE)
    if (++this.gone > SWEEP_AT && 2 * this.gone > this.m.size) this.sweep()
  }

  /** keys held, present or gone (the tests bound it) */
  get held(): number {
    return this.m.size
  }

  clear(): void {
    this.m.clear()
    this.gone = 0
  }

  private sweep(): void {
    for (const [k, v] of this.m) if (v === GONE) this.m.delete(k)
    this.gone = 0
  }
}
