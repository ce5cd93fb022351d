// SpillWriter (commands/spill-writer.ts): what is written comes back whole and in order, from memory under its 64 KiB
// buffer and from its scratch file past it, UTF-8 characters of 1 to 4 bytes never cut at a chunk's edge.
import { describe, expect, it } from 'vitest'
import { SpillWriter } from '../../src/commands/spill-writer.js'
import { StringWriter } from '../../src/format/writer.js'

describe('SpillWriter', () => {
  it.each([10, 5_000, 100_000])('%i strings of mixed widths come back as written, and it is empty after', (n) => {
    const w = new SpillWriter('spill-writer-test')
    const pieces = ['a', 'é', '€', '😀', 'kafka ', '\u00a0']
    let want = ''
    for (let i = 0; i < n; i++) {
      const s = pieces[i % pieces.length]!.repeat(1 + (i % 7))
      want += s
      w.write(s)
    }
    const to = new StringWriter()
    w.writeTo(to)
    expect(to.text).toBe(want)
    // let go: written again, only the new text comes back
    w.write('again')
    const again = new StringWriter()
    w.writeTo(again)
    expect(again.text).toBe('again')
    w.close()
  })
})
