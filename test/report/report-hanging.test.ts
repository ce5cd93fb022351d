// The report says what lso says about the transaction holding the LSO: one "waiting" number (analysis/lso.ts
// recordsWaiting) in the banner and the table, an age measured against --now with its source, and the hanging
// rule's finding counted in the Findings section. Truth: the open-txn broker's expected.json (LSO, HW, the two
// consumers' counts) and kafka-dump-log's deep text of stuck-0 (which transactions an ABORT ended).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

const dir = path.join(FIXTURES, 'open-txn')
const expected = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
  partitions: Array<{
    lastStableOffset: number
    highWatermark: number
    readCommittedRecords: number
    readUncommittedRecords: number
  }>
}

/** records in [LSO, HW) a read_committed consumer gets once the LSO moves: all but those of aborted transactions (kafka-dump-log's text) */
function waitingFromDump(lso: number, hw: number): number {
  const text = fs
    .readFileSync(path.join(dir, 'dump', 'stuck-0', '00000000000000000000.log.deep.txt'), 'utf8')
    .split('\n')
  const open = new Map<string, Array<{ base: number; count: number }>>()
  let waiting = 0
  let control: string | null = null
  for (const l of text) {
    const b =
      /^baseOffset: (\d+) lastOffset: \d+ count: (\d+) .*producerId: (-?\d+) .*isTransactional: (\w+) isControl: (\w+)/.exec(
        l,
      )
    if (b !== null) {
      const [base, count, pid, txn, ctl] = [Number(b[1]), Number(b[2]), b[3]!, b[4] === 'true', b[5] === 'true']
      control = ctl ? pid : null
      if (ctl || base < lso || base >= hw) continue
      if (!txn) {
        waiting += count
        continue
      }
      open.set(pid, [...(open.get(pid) ?? []), { base, count }])
      continue
    }
    const m = /endTxnMarker: (COMMIT|ABORT)/.exec(l)
    if (m !== null && control !== null) {
      if (m[1] === 'COMMIT') waiting += (open.get(control) ?? []).reduce((a, x) => a + x.count, 0)
      open.delete(control)
    }
  }
  // still open: they wait too
  for (const runs of open.values()) waiting += runs.reduce((a, x) => a + x.count, 0)
  return waiting
}

describe('report: the transaction holding the LSO, as lso states it', () => {
  it('one waiting number, the age against --now with its source, and TXN_HANGING among the findings', async () => {
    const p = expected.partitions[0]!
    const waiting = waitingFromDump(p.lastStableOffset, p.highWatermark)
    // the broker's consumers: what is pending at all, of which some were aborted
    expect(waiting).toBeLessThan(p.readUncommittedRecords - p.readCommittedRecords)
    const now = Date.parse('2026-12-06T00:00:00Z')
    const r = await runCli(['report', '-o', '-', '--now', String(now), path.join(dir, 'logs')])
    expect(r.code).toBe(1)
    const html = r.stdout
    expect(html).toContain(`${waiting} records wait behind a transaction (HANGING`)
    // the table's column is the same number
    const row = /<tr[^>]*>(<td[^>]*>stuck-0<\/td>.*?)<\/tr>/.exec(html)
    expect(row).not.toBeNull()
    const cells = [...row![1]!.matchAll(/<td[^>]*>([^<]*)<\/td>/g)].map((m) => m[1])
    // the partition table's header (the topics table comes first)
    const all = [...html.matchAll(/<th[^>]*>([^<]*)<\/th>/g)].map((m) => m[1])
    const head = all.slice(all.indexOf('partition'))
    const col = head.indexOf('waiting')
    expect(col).toBeGreaterThan(0)
    expect(cells[col]).toBe(String(waiting))
    expect(html).not.toContain('pending</th>')
    // lso's number is the same
    const l = JSON.parse((await runCli(['lso', '--json', '--now', String(now), path.join(dir, 'logs')])).stdout)
    expect(l.partitions[0].blocking.recordsWaiting).toBe(waiting)
    // the age: against --now, from event time (no coordinator records here), never "before the newest batch"
    const age = ((now - Number(l.partitions[0].blocking.lastTimestamp)) / 60_000).toFixed(1)
    expect(html).toContain(`age ${age} min at 2026-12-06T00:00:00.000Z, from the records&#39; timestamps (event time`)
    expect(html).not.toContain('before the newest batch')
    // the verdict is a finding, not "the files read cleanly"
    expect(html).toMatch(/Findings \(1\)/)
    expect(html).toContain('TXN_HANGING')
    expect(html).not.toContain('read cleanly')
  })

  it('before the timeout: open, no finding, exit 0', async () => {
    const l = JSON.parse((await runCli(['lso', '--json', '--now', '0', path.join(dir, 'logs')])).stdout)
    const last = Number(l.partitions[0].blocking.lastTimestamp)
    const r = await runCli(['report', '-o', '-', '--now', String(last + 15 * 60_000), path.join(dir, 'logs')])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('records wait behind a transaction (open)')
    expect(r.stdout).toContain('read cleanly')
  })
})
