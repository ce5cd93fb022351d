// The hostile-input harness judges runs; these tests make sure its judgements can fail: an unexpected
// failure, an expected failure that no longer happens, a finding without a location, a changed input.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
// @ts-expect-error: plain .mjs without type declarations
import { compareInputs, crashProblem, located, snapshotInputs, unlocatedCodes } from '../../scripts/fuzz/checks.mjs'
// @ts-expect-error: plain .mjs without type declarations
import { LocationTally, Tally, judge } from '../../scripts/fuzz/harness.mjs'
import { rmrf, tmp } from './support.js'

const dir = tmp('tsdump-harness-')
afterAll(() => rmrf(dir))
const ok = { code: 0, stdout: '', stderr: '', seconds: 0.1, rssMiB: 50 }

describe('fuzz harness judgements', () => {
  it('flags stack traces, internal errors, time, RSS and exit codes', () => {
    expect(crashProblem(0, 'tsdump: internal error: boom')).toMatch(/internal error/)
    expect(crashProblem(1, 'Error: x\n    at foo (/a/b.js:1:2)\n')).toMatch(/stack trace/)
    expect(crashProblem(134, '')).toMatch(/exit code/)
    expect(crashProblem(1, 'tsdump: error: f: position 3: bad [CRC_MISMATCH]\n')).toBeUndefined()
    const t = new LocationTally()
    expect(judge({ argv: [] }, { ...ok, seconds: 61 }, undefined, t)).toEqual([['time', '61.0 s']])
    expect(judge({ argv: [] }, { ...ok, rssMiB: 129 }, undefined, t)).toEqual([['rss', '129 MiB peak RSS']])
  })

  it('a finding is located by file + position, or by partition + offsets', () => {
    expect(located({ file: 'a', position: 0 })).toBe(true)
    expect(located({ file: 'a' })).toBe(false)
    expect(located({ partition: 'orders-0', firstOffset: 3 })).toBe(true)
    expect(located({ partition: 'orders-0' })).toBe(false)
    const ndjson =
      '{"type":"file"}\n{"type":"finding","severity":"error","code":"A","file":"f","position":1,"message":"m"}\n{"type":"finding","severity":"error","code":"B","message":"m"}\n'
    expect(unlocatedCodes(ndjson)).toEqual({ all: ['A', 'B'], unlocated: ['B'] })
    expect(unlocatedCodes('{"partitions":[{"findings":[{"severity":"warning","code":"C","message":"m"}]}]}')).toEqual({
      all: ['C'],
      unlocated: ['C'],
    })
  })

  it('an unexpected failure fails; an expected failure that passes is stale', () => {
    const t = new Tally()
    t.add('k:a', ok, [['rss', '200 MiB']])
    t.add('k:b', ok, [])
    const v = t.verdict({ 'k:b/rss': 'listed, but passes now', 'k:a/rss': 'listed and failing' }, () => true)
    expect(v.unexpected).toEqual([])
    expect(v.stale).toEqual([expect.stringMatching(/^k:b\/rss passes now: remove it/)])
    expect(t.verdict({}, () => true).unexpected).toEqual(['k:a/rss: 200 MiB'])
    const l = new LocationTally()
    l.add({ all: ['X', 'Y'], unlocated: ['Y'] })
    expect(l.verdict(['X', 'Y'])).toEqual([expect.stringMatching(/^X is now always located/)])
    expect(l.verdict([])).toEqual([expect.stringMatching(/^1 findings Y without a location/)])
  })

  it('a write to an input is seen (content, times, a created file)', () => {
    const f = path.join(dir, 'a.log')
    fs.writeFileSync(f, 'abc')
    const before = snapshotInputs([dir])
    expect(compareInputs(before, snapshotInputs([dir]))).toBeUndefined()
    fs.writeFileSync(f, 'abd')
    expect(compareInputs(before, snapshotInputs([dir]))).toMatch(/input changed/)
    fs.writeFileSync(f, 'abc')
    fs.writeFileSync(path.join(dir, 'b.index'), '')
    expect(compareInputs(before, snapshotInputs([dir]))).toMatch(/input (changed|created)/)
  })
})
