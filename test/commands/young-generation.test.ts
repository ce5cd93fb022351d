// commands/young-generation.ts: once the new space has reached the bound, V8 grows it no further. Run in a child
// process (the setting is the whole process's), with objects that live across scavenges as the scan's open
// transactions do, and against the same allocation without the cap, which V8 grows to its maximum.
import { spawnSync } from 'node:child_process'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

const MODULE = pathToFileURL(path.join(REPO_ROOT, 'dist', 'commands', 'young-generation.js')).href

/** the new space's size in bytes after the allocation, with the cap at `bound` bytes (0: none) */
function newSpaceAfter(bound: number): number {
  const script = `
    import v8 from 'node:v8'
    import { YoungGenerationCap } from ${JSON.stringify(MODULE)}
    const cap = ${bound} > 0 ? new YoungGenerationCap(${bound}) : undefined
    const keep = []
    let sum = 0
    for (let i = 0; i < 3e6; i++) {
      const o = { a: i, b: [i] }
      keep.push(o)
      if (keep.length > 200000) keep.length = 0
      sum += o.a
      if (i % 1000 === 0) cap?.check()
    }
    const s = v8.getHeapSpaceStatistics().find((x) => x.space_name === 'new_space')
    process.stdout.write(String(s.space_size) + ' ' + sum)
  `
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { encoding: 'utf8' })
  expect(r.status, r.stderr).toBe(0)
  return Number(r.stdout.split(' ')[0])
}

describe('YoungGenerationCap', () => {
  it('holds the new space at the bound it has reached; without it V8 grows the new space past that', () => {
    const MiB = 1024 * 1024
    const free = newSpaceAfter(0)
    const held = newSpaceAfter(4 * MiB)
    expect(free).toBeGreaterThanOrEqual(16 * MiB)
    expect(held).toBeGreaterThanOrEqual(4 * MiB)
    expect(held).toBeLessThanOrEqual(8 * MiB)
  })
})
