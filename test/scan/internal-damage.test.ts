// Damage in an internal topic's log (__transaction_state, __cluster_metadata, __remote_log_metadata,
// __consumer_offsets) is a finding at its file and position, and what depends on the lost records is said to
// be unknown, never a default. Each case is a copy of a real broker's fixture damaged in a temp dir at a batch
// position taken from kafka-dump-log's stored text beside the fixture; the expected values come from that text
// and the fixture's expected.json (the consumers' counts), never from tsdump's own output.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES_44 } from '../support/paths.js'

const SEG = '00000000000000000000.log'
let tmp = ''
afterEach(() => {
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true })
  tmp = ''
})
function copy(fixture: string): string {
  tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-internal-'))
  fs.cpSync(path.join(FIXTURES_44, fixture), tmp, { recursive: true })
  return tmp
}

/** kafka-dump-log's batches of a stored text: position, size and the record lines that follow each */
function batches(text: string): Array<{ position: number; size: number; records: string[] }> {
  const out: Array<{ position: number; size: number; records: string[] }> = []
  for (const line of text.split('\n')) {
    const b = /^baseOffset: .* position: (\d+) .* size: (\d+) /.exec(line)
    if (b !== null) out.push({ position: Number(b[1]), size: Number(b[2]), records: [] })
    else if (line.startsWith('| ') && out.length > 0) out[out.length - 1]!.records.push(line)
  }
  return out
}
const stored = (fixture: string, dir: string, kind: string): string =>
  fs.readFileSync(path.join(FIXTURES_44, fixture, 'dump', dir, `${SEG}.${kind}.txt`), 'latin1')

interface Finding {
  code: string
  file?: string
  position?: number
  partition?: string
}

describe('a torn __transaction_state segment', () => {
  it('is TRUNCATED_TAIL at the torn batch, and the id whose CompleteAbort was torn off has an unknown state, not PrepareAbort', async () => {
    // the CompleteAbort of orders-sink-1-3 in __transaction_state-1, by kafka-dump-log's --transaction-log-decoder text
    const torn = batches(stored('transactions', '__transaction_state-1', 'txnlog')).find((b) =>
      b.records.some((r) => r.includes('"orders-sink-1-3"') && r.includes('"CompleteAbort"')),
    )!
    const logs = path.join(copy('transactions'), 'logs')
    const file = path.join(logs, '__transaction_state-1', SEG)
    fs.truncateSync(file, torn.position + 27)
    const r = await runCli(['transactions', '--json', logs])
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /)
    expect(r.code).toBe(1)
    const j = JSON.parse(r.stdout) as {
      transactionalIds: Array<{
        transactionalId: string
        state: string
        lastKnownState?: string
        unknownPast?: Finding
      }>
      findings: Finding[]
    }
    expect(j.findings).toContainEqual(
      expect.objectContaining({ code: 'TRUNCATED_TAIL', file, position: torn.position }),
    )
    const id = j.transactionalIds.find((s) => s.transactionalId === 'orders-sink-1-3')!
    expect(id.state).toBe('unknown')
    expect(id.lastKnownState).toBe('PrepareAbort')
    expect(id.unknownPast).toEqual({ file, position: torn.position, code: 'TRUNCATED_TAIL' })
    // an id of another partition is untouched
    expect(j.transactionalIds.find((s) => s.transactionalId === 'rpw-0')!.state).toBe('CompleteCommit')
    // txns on the partition says it in its table, and reports the damage once
    const t = await runCli(['txns', path.join(logs, '__transaction_state-1')])
    expect(t.stdout).toMatch(/orders-sink-1-3 .* unknown \(PrepareAbort\)/)
    expect(t.stdout).toMatch(/state unknown for \d+ transactional ids/)
    expect(t.stderr.match(/TRUNCATED_TAIL/g)).toHaveLength(1)
  })
})

describe('a garbage __cluster_metadata log', () => {
  it('makes every config unknown (CONFIGS_UNKNOWN at the damage): no policy, no retention from defaults', async () => {
    const dir = copy('cleanup')
    const file = path.join(dir, 'before', '__cluster_metadata-0', SEG)
    fs.writeFileSync(file, Buffer.alloc(fs.statSync(file).size, 0xa5))
    const r = await runCli(['cleanup', '--json', '--now', '2026-12-10T00:00:00Z', path.join(dir, 'before')])
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /)
    const j = JSON.parse(r.stdout) as {
      metadataLost?: string
      partitions: Array<{
        topic: string
        cleanupPolicy: string
        retentionDeletes: unknown
        firstDirtyOffset: unknown
        findings: Finding[]
      }>
    }
    expect(j.metadataLost).toContain(file)
    const p = j.partitions.find((x) => x.topic === 'cu-compact')!
    expect(p.cleanupPolicy).toBe('unknown')
    expect(p.retentionDeletes ?? []).toEqual([])
    expect(p.firstDirtyOffset).toBeNull()
    // (cleanup --json's findings carry code, severity and message; their file and position are another change's)
    expect(p.findings).toContainEqual(
      expect.objectContaining({
        code: 'CONFIGS_UNKNOWN',
        message: expect.stringContaining(`${file} could not be read past position 0`) as unknown,
      }),
    )
    expect(r.code).toBe(1)
    const text = await runCli(['cleanup', '--now', '2026-12-10T00:00:00Z', path.join(dir, 'before')])
    expect(text.stdout).not.toContain('configs from')
    expect(text.stdout).not.toMatch(/cu-compact-0[^\n]*\n[^\n]*retention deletes/)
  })
})

describe('a damaged __remote_log_metadata partition', () => {
  // the COPY_SEGMENT_FINISHED update of tiered-0's segment 9..16, by kafka-dump-log's --remote-log-metadata-decoder text
  function damage(): { dir: string; file: string; at: number } {
    const dir = copy('tiered')
    const text = stored('tiered', '__remote_log_metadata-1', 'remote')
    const all = batches(text)
    const created = all.find((b) => b.records.some((r) => r.includes(':tiered-0,') && r.includes('startOffset=9,')))!
    const id = /id=([\w-]+)\}/.exec(created.records[0]!)![1]!
    const finished = all.find((b) =>
      b.records.some((r) => r.includes(`id=${id}}`) && r.includes('state=COPY_SEGMENT_FINISHED')),
    )!
    const file = path.join(dir, 'logs', '__remote_log_metadata-1', SEG)
    const bytes = fs.readFileSync(file)
    bytes.fill(0xff, finished.position, finished.position + finished.size)
    fs.writeFileSync(file, bytes)
    return { dir, file, at: finished.position }
  }

  it('remote: the damage, REMOTE_STATE_UNKNOWN for tiered-0, and no false REMOTE_COPY_UNFINISHED or REMOTE_GAP', async () => {
    const { dir, file, at } = damage()
    const r = await runCli(['remote', '--json', '--remote-storage', path.join(dir, 'remote'), path.join(dir, 'logs')])
    expect(r.stderr).not.toMatch(/internal error|\n\s+at /)
    const j = JSON.parse(r.stdout) as {
      findings: Finding[]
      partitions: Array<{
        topic: string
        partition: number
        findings: Finding[]
        segments: Array<{ startOffset: string; verdict: string }>
      }>
    }
    expect(j.findings).toContainEqual(expect.objectContaining({ code: 'BAD_LENGTH', file, position: at }))
    const p = j.partitions.find((x) => x.topic === 'tiered' && x.partition === 0)!
    expect(p.findings).toContainEqual(expect.objectContaining({ code: 'REMOTE_STATE_UNKNOWN', file, position: at }))
    expect(p.findings.map((f) => f.code)).not.toContain('REMOTE_COPY_UNFINISHED')
    expect(p.findings.map((f) => f.code)).not.toContain('REMOTE_GAP')
    expect(p.segments.find((s) => String(s.startOffset) === '9')!.verdict).toBe('unknown')
  })

  it('reconcile --remote-storage still counts what the consumers read (expected.json), and says why', async () => {
    const { dir, file } = damage()
    const expected = (
      JSON.parse(fs.readFileSync(path.join(FIXTURES_44, 'tiered', 'expected.json'), 'utf8')) as {
        tiered: {
          partitions: Array<{
            topic: string
            partition: number
            readCommittedRecords: number
            readUncommittedRecords: number
          }>
        }
      }
    ).tiered.partitions
    const r = await runCli([
      'reconcile',
      '--json',
      '--remote-storage',
      path.join(dir, 'remote'),
      path.join(dir, 'logs', 'tiered-0'),
    ])
    const part = (
      JSON.parse(r.stdout) as {
        partitions: Array<{ readCommitted: number; readUncommitted: number; findings: Finding[] }>
      }
    ).partitions[0]!
    const want = expected.find((e) => e.topic === 'tiered' && e.partition === 0)!
    expect(part.readCommitted).toBe(want.readCommittedRecords)
    expect(part.readUncommitted).toBe(want.readUncommittedRecords)
    expect(part.findings).toContainEqual(
      expect.objectContaining({ code: 'REMOTE_STATE_UNKNOWN', file: fs.realpathSync(file) }),
    )
  })
})

describe('an offset commit value with a negative version', () => {
  it('is BAD_INTERNAL_RECORD at the record, not an internal error', async () => {
    // the last record of the batch holding offset commits, by kafka-dump-log's --offsets-decoder text: an
    // uncompressed record ends with its value and a zero header count, so the value starts valueSize + 1 bytes before the batch's end
    const b = batches(stored('transactions', '__consumer_offsets-1', 'offsets')).find(
      (x) => x.records.length > 0 && x.records.at(-1)!.includes('key: {"type":"1"'),
    )!
    const valueSize = Number(/valueSize: (\d+)/.exec(b.records.at(-1)!)![1])
    const logs = path.join(copy('transactions'), 'logs')
    const file = path.join(logs, '__consumer_offsets-1', SEG)
    const bytes = fs.readFileSync(file)
    bytes.writeInt16BE(-1, b.position + b.size - 1 - valueSize)
    fs.writeFileSync(file, bytes)
    const r = await runCli(['transactions', '--json', logs])
    expect(r.stderr).not.toMatch(/internal error|BigInt|\n\s+at /)
    const j = JSON.parse(r.stdout) as { findings: Finding[] }
    expect(j.findings).toContainEqual(expect.objectContaining({ code: 'BAD_INTERNAL_RECORD', file }))
    expect(r.code).toBe(1)
  })
})
