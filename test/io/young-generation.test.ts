// What io/young-generation.ts relies on in V8, checked in a process of its own (the flag is the process's): a long
// run of short-lived objects grows the young generation to V8's largest whatever survives at a time, a hold keeps
// it at the size it was held at, and release() gives V8 its growth back.
import { spawnSync } from 'node:child_process'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

const MODULE = path.join(REPO_ROOT, 'dist/io/young-generation.js')

/** the young generation's size (MiB, both semi-spaces) after each of `rounds` rounds of garbage, the hold told each 2,000 objects */
function sizes(hold: 'none' | 'held' | 'released', rounds = 4): number[] {
  const script = `
    import * as v8 from 'node:v8'
    import { YoungGenerationHold } from ${JSON.stringify(MODULE)}
    const young = () => v8.getHeapSpaceStatistics().find((s) => s.space_name === 'new_space').space_size / 2 ** 20
    const hold = new YoungGenerationHold()
    const out = []
    let live = []
    for (let round = 0; round < ${rounds}; round++) {
      if (${JSON.stringify(hold)} === 'released' && round === 2) hold.release()
      for (let i = 0; i < 1e7; i++) {
        live.push({ i })
        if (live.length > 2000) {
          live = []
          if (${JSON.stringify(hold)} !== 'none') hold.tick()
        }
      }
      out.push(young())
    }
    console.log(JSON.stringify(out))
  `
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  return JSON.parse(r.stdout) as number[]
}

describe('the young generation held', () => {
  it('grows to 32 MiB unheld, though at most 2,000 small objects are alive at a time', () => {
    expect(sizes('none').at(-1)).toBe(32)
  })
  it('held at 16 MiB once it has grown there', () => {
    expect(sizes('held')).toEqual([16, 16, 16, 16])
  })
  it('grows again once released', () => {
    const s = sizes('released', 8)
    expect(s.slice(0, 2)).toEqual([16, 16])
    expect(s.at(-1)).toBe(32)
  })
})
