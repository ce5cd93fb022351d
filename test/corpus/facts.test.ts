// Every .log in ../shared/corpus against facts.json, which an independent scanner (not tsdump) wrote.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { CORPUS, corpusAvailable } from '../support/paths.js'

interface Fact {
  file: string
  batches: number
  records: number
  magic: Record<string, number>
  codecs: Record<string, number>
  control: Record<string, number>
  crcInvalid: number
  transactionalBatches: number
  firstOffset: number
  lastOffset: number
  trailingBytes: number
}

const have = corpusAvailable()
const facts: Fact[] = have ? (JSON.parse(fs.readFileSync(path.join(CORPUS, 'facts.json'), 'utf8')) as Fact[]) : []

function summaryOf(stdout: string): Record<string, unknown> {
  const s = stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .find((o) => o.type === 'summary')
  if (s === undefined) throw new Error('no summary object in output')
  return s
}

describe.skipIf(!have)('corpus facts.json', () => {
  for (const f of facts) {
    it(`deep: ${f.file}`, async () => {
      const r = await runCli(['--json', '--deep-iteration', path.join(CORPUS, f.file)])
      const s = summaryOf(r.stdout)
      expect(s.batches).toBe(f.batches)
      expect(s.records).toBe(f.records)
      expect(s.magic).toEqual(f.magic)
      expect(s.codecs).toEqual(f.codecs)
      expect(s.controlBatches).toEqual(f.control)
      expect(s.crcFailures).toBe(f.crcInvalid)
      expect(s.transactionalBatches).toBe(f.transactionalBatches)
      expect(s.firstOffset).toBe(f.firstOffset)
      expect(s.lastOffset).toBe(f.lastOffset)
      expect(s.trailingBytes).toBe(f.trailingBytes)
      expect(r.stderr).not.toMatch(/error/)
      expect(r.code).toBe(0)
    })
    it(`shallow batch lines: ${f.file}`, async () => {
      const r = await runCli(['--no-summary', path.join(CORPUS, f.file)])
      const lines = r.stdout.split('\n')
      expect(lines.filter((l) => l.startsWith('baseOffset: ') || l.startsWith('offset: ')).length).toBe(f.batches)
      expect(lines.filter((l) => l.includes('isvalid: false')).length).toBe(0)
      const controls = lines.filter((l) => l.includes('isControl: true')).length
      expect(controls).toBe(Object.values(f.control).reduce((a, b) => a + b, 0))
    })
  }
})

describe.skipIf(!have)('corpus indexes and snapshots (MANIFEST.md)', () => {
  it('idempotent-rolled: trimmed .index has 252 entries that all match the log, snapshot has 1 entry', async () => {
    const dir = path.join(CORPUS, 'idempotent-rolled/timeindex_test-0')
    const idx = await runCli(['--json', path.join(dir, '00000000000000007729.index')])
    const entries = idx.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string })
      .filter((o) => o.type === 'index-entry')
    expect(entries.length).toBe(252)
    expect(idx.code).toBe(0)
    const snap = await runCli(['--json', path.join(dir, '00000000000000007729.snapshot')])
    const se = snap.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string; producerId?: number })
      .filter((o) => o.type === 'snapshot-entry')
    expect(se.length).toBe(1)
    expect(se[0]!.producerId).toBe(0)
    const ti = await runCli(['--verify-index-only', path.join(dir, '00000000000000007729.timeindex')])
    expect(ti.code).toBe(0)
    expect(ti.stderr).toBe('')
  })

  it('plain-multi-record: header-only snapshot, 0-byte index of the next segment', async () => {
    const dir = path.join(CORPUS, 'plain-multi-record/test_topic_a-0')
    const snap = await runCli([path.join(dir, '00000000000000000362.snapshot')])
    expect(snap.code).toBe(0)
    expect(snap.stdout.split('\n').filter((l) => l.startsWith('producerId:')).length).toBe(0)
    const empty = await runCli([path.join(dir, '00000000000000000362.index')])
    expect(empty.stdout).toContain(`${path.join(dir, '00000000000000000362.index')} is empty.`)
  })

  it('a whole partition directory is dumped in offset order and is clean', async () => {
    const r = await runCli([path.join(CORPUS, 'plain-multi-record/test_topic_a-0')])
    const dumped = r.stdout
      .split('\n')
      .filter((l) => l.startsWith('Dumping '))
      .map((l) => path.basename(l))
    expect(dumped).toEqual([
      '00000000000000000000.log',
      '00000000000000000000.index',
      '00000000000000000000.timeindex',
      '00000000000000000362.index',
      '00000000000000000362.snapshot',
    ])
    expect(r.code).toBe(0)
  })
})
