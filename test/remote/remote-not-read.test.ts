// Remote segments that exist but were not read (no --remote-storage): every command that counts says how many
// offsets it did not count and how to read them (REMOTE_NOT_READ), with those offsets. Truth: the tiered fixture's
// broker (expected.json tiered.partitions: ListOffsets EARLIEST = logStartOffset, EARLIEST_LOCAL = earliestLocalOffset).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Finding } from '../../src/analysis/findings.js'
import { reconcile, runReconcile } from '../../src/commands/reconcile.js'
import { txns } from '../../src/commands/txns.js'
import { lso } from '../../src/commands/lso.js'
import { transactions } from '../../src/commands/transactions.js'
import { cleanup } from '../../src/commands/cleanup.js'
import { buildReportModel } from '../../src/commands/report.js'
import { remoteOffsetsNotRead } from '../../src/analysis/log-start.js'
import { runCommand } from '../support/txn-segment-builder.js'
import { FIXTURES_44 } from '../support/paths.js'

const FIXTURE = path.join(FIXTURES_44, 'tiered')
const LOGS = path.join(FIXTURE, 'logs')
interface Expected {
  topic: string
  partition: number
  logStartOffset: number
  earliestLocalOffset: number
}
const expected = (
  JSON.parse(fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as { tiered: { partitions: Expected[] } }
).tiered.partitions
const tiered = expected.filter((e) => e.earliestLocalOffset > e.logStartOffset)
const kept = expected.filter((e) => e.earliestLocalOffset === e.logStartOffset)
const label = (e: Expected): string => `${e.topic}-${e.partition}`
const paths = expected.map((e) => path.join(LOGS, label(e)))
const tmp: string[] = []
afterAll(() => {
  for (const d of tmp) fs.rmSync(d, { recursive: true, force: true })
})

/** the REMOTE_NOT_READ offsets in a partition's findings */
const notRead = (fs_: readonly Finding[]): Array<[number, number]> =>
  fs_.filter((f) => f.code === 'REMOTE_NOT_READ').map((f) => [Number(f.firstOffset), Number(f.lastOffset)])
const truth = (e: Expected): Array<[number, number]> => [[e.logStartOffset, e.earliestLocalOffset - 1]]

describe('REMOTE_NOT_READ (fixtures/broker-4.4/tiered, local segments only)', () => {
  it('the fixture has tiered partitions and one that kept its segments', () => {
    expect(tiered.length).toBeGreaterThan(0)
    expect(kept.length).toBeGreaterThan(0)
  })

  it('reconcile names the remote offsets not counted (log start .. first local offset - 1) and exits 1', async () => {
    const r = reconcile(paths)
    for (const e of expected) {
      const p = r.partitions.find((x) => x.label === label(e))!
      expect(notRead(p.report.findings), label(e)).toEqual(kept.includes(e) ? [] : truth(e))
    }
    const cli = await runCommand(runReconcile, { paths: [path.join(LOGS, label(tiered[0]!))], format: 'text' })
    expect(cli.code).toBe(1)
    expect(cli.err).toMatch(/were not read .*--remote-storage <dir>/s)
  })

  it('txns, lso, cleanup and report say the same; transactions lists it among its findings', () => {
    const t = txns(paths)
    const l = lso(paths)
    const c = cleanup(paths, { now: 0 })
    const rep = buildReportModel({ paths, title: 't' })
    for (const e of tiered) {
      expect(
        notRead(
          t.partitions.find((x) => x.report.partition === e.partition && x.report.topic === e.topic)!.report.findings,
        ),
        `txns ${label(e)}`,
      ).toEqual(truth(e))
      expect(notRead(l.partitions.find((x) => x.label === label(e))!.report.findings), `lso ${label(e)}`).toEqual(
        truth(e),
      )
      expect(notRead(c.partitions.find((x) => x.label === label(e))!.findings), `cleanup ${label(e)}`).toEqual(truth(e))
      expect(notRead(rep.partitions.find((x) => x.label === label(e))!.report.findings), `report ${label(e)}`).toEqual(
        truth(e),
      )
    }
    const j = transactions(paths)
    expect('findings' in j).toBe(true)
    expect(notRead((j as { findings: Finding[] }).findings).sort()).toEqual(tiered.map(truth).flat().sort())
  })

  it('with --remote-storage the remote segments are read, and there is nothing to say', () => {
    const r = reconcile(paths, { remote: path.join(FIXTURE, 'remote') })
    for (const p of r.partitions) expect(notRead(p.report.findings), p.label).toEqual([])
  })

  it('without __remote_log_metadata, from the log-start-offset-checkpoint below the first local segment', () => {
    const d = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-remote-not-read-'))
    tmp.push(d)
    for (const n of fs.readdirSync(LOGS))
      if (!n.startsWith('__remote_log_metadata')) fs.cpSync(path.join(LOGS, n), path.join(d, n), { recursive: true })
    const r = reconcile([d])
    for (const e of expected) {
      const f = r.partitions
        .find((x) => x.label === label(e))!
        .report.findings.filter((x) => x.code === 'REMOTE_NOT_READ')
      expect(notRead(f), label(e)).toEqual(kept.includes(e) ? [] : truth(e))
      if (!kept.includes(e)) expect(f[0]!.message).toContain('log-start-offset-checkpoint')
    }
  })

  it('the rule: metadata segments or the checkpoint below the first local segment; nothing below the log start', () => {
    expect(remoteOffsetsNotRead(17n, 5n, [{ startOffset: 0n }, { startOffset: 9n }])).toEqual({
      firstOffset: 5n,
      lastOffset: 16n,
      evidence: 'remote-log-metadata',
    })
    expect(remoteOffsetsNotRead(17n, null, [{ startOffset: 9n }, { startOffset: 17n }])).toEqual({
      firstOffset: 9n,
      lastOffset: 16n,
      evidence: 'remote-log-metadata',
    })
    expect(remoteOffsetsNotRead(17n, 5n, [])).toEqual({
      firstOffset: 5n,
      lastOffset: 16n,
      evidence: 'log-start-offset-checkpoint',
    })
    expect(remoteOffsetsNotRead(17n, 20n, [])).toBeNull()
    expect(remoteOffsetsNotRead(0n, 0n, [{ startOffset: 0n }])).toBeNull()
  })
})
