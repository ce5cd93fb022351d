// The keys of the findings doctor has seen, for its one-list rule (collect.ts): each key kept as a 64-bit hash in
// one typed table (16 bytes a finding at most), not as a string or an object, so that remembering 100,000 findings
// costs 2 MiB. Two different keys share a hash with a chance near n^2 / 2^65 (1e-9 at 200,000 findings).

/** cyrb53's mixing, two 32-bit halves (a well-known non-cryptographic string hash) */
function hash(s: string): [number, number] {
  let h1 = 0xdeadbeef
  let h2 = 0x41c6ce57
  for (let i = 0; i < s.length; i++) {
    const ch = s.charCodeAt(i)
    h1 = Math.imul(h1 ^ ch, 2654435761)
    h2 = Math.imul(h2 ^ ch, 1597334677)
  }
  h1 = Math.imul(h1 ^ (h1 >>> 16), 2246822507) ^ Math.imul(h2 ^ (h2 >>> 13), 3266489909)
  h2 = Math.imul(h2 ^ (h2 >>> 16), 2246822507) ^ Math.imul(h1 ^ (h1 >>> 13), 3266489909)
  // (0, 0) marks an empty slot
  return h1 === 0 && h2 === 0 ? [0, 1] : [h1 >>> 0, h2 >>> 0]
}

export class KeySet {
  private table = new Uint32Array(2 * 1024)
  private used = 0

  /** adds `key`; false when it was there already */
  add(key: string): boolean {
    if (2 * (this.used + 1) > this.table.length / 2) this.grow()
    const [a, b] = hash(key)
    if (!this.put(this.table, a, b)) return false
    this.used++
    return true
  }

  has(key: string): boolean {
    const [a, b] = hash(key)
    const t = this.table
    const slots = t.length / 2
    for (let i = a % slots; ; i = (i + 1) % slots) {
      if (t[2 * i] === 0 && t[2 * i + 1] === 0) return false
      if (t[2 * i] === a && t[2 * i + 1] === b) return true
    }
  }

  get size(): number {
    return this.used
  }

  /** linear probing; false when (a, b) is there */
  private put(t: Uint32Array, a: number, b: number): boolean {
    const slots = t.length / 2
    for (let i = a % slots; ; i = (i + 1) % slots) {
      if (t[2 * i] === 0 && t[2 * i + 1] === 0) {
        t[2 * i] = a
        t[2 * i + 1] = b
        return true
      }
      if (t[2 * i] === a && t[2 * i + 1] === b) return false
    }
  }

  private grow(): void {
    const old = this.table
    const t = new Uint32Array(old.length * 2)
    for (let i = 0; i < old.length; i += 2) if (old[i] !== 0 || old[i + 1] !== 0) this.put(t, old[i]!, old[i + 1]!)
    this.table = t
  }
}
