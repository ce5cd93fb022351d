import { describe, expect, it } from 'vitest'
import fc from 'fast-check'
import { StringWriter } from '../../src/format/writer.js'
import { writeJson } from '../../src/format/json-stream.js'

describe('writeJson', () => {
  it('writes exactly what JSON.stringify writes', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (v) => {
        const w = new StringWriter()
        writeJson(w, v)
        expect(w.text).toBe(JSON.stringify(v))
      }),
      { numRuns: 500 },
    )
  })
  it('streams arrays past the size where one string would do', () => {
    const big = {
      partitions: [{ runs: Array.from({ length: 5000 }, (_, i) => ({ i, s: 'x'.repeat(i % 7), u: undefined })) }],
    }
    const w = new StringWriter()
    writeJson(w, big)
    expect(w.text).toBe(JSON.stringify(big))
  })
})
