// The package imported by its name, as a user would (`import ... from 'tsdump'`, resolved through
// package.json "exports" to dist/): it must agree with the CLI, whose numbers the other tests check
// against Kafka's own tools.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES, REPO_ROOT } from './support/paths.js'

const part = path.join(FIXTURES, 'orders', 'logs', 'orders-11-0')

function node (script: string): string {
  const r = spawnSync(process.execPath, ['--input-type=module', '-e', script], { cwd: REPO_ROOT, encoding: 'utf8' })
  expect(r.stderr).toBe('')
  expect(r.status).toBe(0)
  return r.stdout
}
function cli (...args: string[]): string {
  return spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin', 'tsdump.js'), ...args], { encoding: 'utf8' }).stdout
}

describe('library API (package "tsdump")', () => {
  it('declares its types through package.json exports', () => {
    const pkg = JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'package.json'), 'utf8')) as { name: string, exports: Record<string, { types: string, import: string }> }
    expect(pkg.name).toBe('tsdump')
    expect(fs.existsSync(path.join(REPO_ROOT, pkg.exports['.']!.types))).toBe(true)
    expect(fs.existsSync(path.join(REPO_ROOT, pkg.exports['.']!.import))).toBe(true)
  })

  it('iterates batches and records of a partition as the dump lists them', () => {
    const out = JSON.parse(node(`
      import { openPartition, openSegment } from 'tsdump'
      const p = openPartition(${JSON.stringify(part)})
      let batches = 0, records = 0, offsets = []
      for await (const b of p.batches()) batches++
      for await (const r of p.records()) { records++; offsets.push(Number(r.offset)) }
      let seg = 0
      for await (const b of openSegment(p.segments[0].path).batches()) seg++
      console.log(JSON.stringify({ batches, records, seg, first: offsets[0], last: offsets.at(-1), findings: p.segments.flatMap((s) => s.findings).length }))
    `)) as { batches: number, records: number, seg: number, first: number, last: number, findings: number }
    const dump = cli('--json', '--deep-iteration', part).trim().split('\n').map((l) => JSON.parse(l) as { type: string, offset?: number })
    expect(out.batches).toBe(dump.filter((e) => e.type === 'batch').length)
    expect(out.records).toBe(dump.filter((e) => e.type === 'record').length)
    expect(out.records).toBeGreaterThan(0)
    expect(out.first).toBe(dump.find((e) => e.type === 'record')!.offset)
    expect(out.findings).toBe(0)
  })

  it('reconcile / txns / lso return plain objects equal to what the CLI prints', () => {
    const lib = JSON.parse(node(`
      import { reconcile, txns, lso } from 'tsdump'
      const r = reconcile([${JSON.stringify(part)}]).partitions[0].report
      const t = txns([${JSON.stringify(part)}]).partitions[0]
      const l = lso([${JSON.stringify(part)}])
      console.log(JSON.stringify({ rc: r.readCommitted, ru: r.readUncommitted, lso: String(r.lastStableOffset), runs: t.runs.length, hanging: l.hanging }))
    `)) as { rc: number, ru: number, lso: string, runs: number, hanging: boolean }
    const c = (JSON.parse(cli('reconcile', '--json', part)) as { partitions: Array<{ readCommitted: number, readUncommitted: number, lastStableOffset: number }> }).partitions[0]!
    expect([lib.rc, lib.ru, lib.lso]).toEqual([c.readCommitted, c.readUncommitted, String(c.lastStableOffset)])
    const t = (JSON.parse(cli('txns', '--json', part)) as { partitions: Array<{ runs: unknown[] }> }).partitions[0]!
    expect(lib.runs).toBe(t.runs.length)
    expect(lib.hanging).toBe((JSON.parse(cli('lso', '--json', part)) as { hanging: boolean }).hanging)
  })
})
