// `dump` with an internal-topic decoder: --json keys and payloads are JSON values, not strings; a record
// the release cannot decode prints Kafka's sentence and is a finding.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'
import { segment } from '../support/segment-builder.js'

const cwd = path.join(FIXTURES, 'orders', 'logs')
const records = (stdout: string): Array<Record<string, unknown>> =>
  stdout
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)
    .filter((o) => o.type === 'record' && o.isControl !== true && 'key' in o)

describe('dump --json with internal-topic decoders', () => {
  it('--offsets-decoder: {type, data} keys and {version, data} payloads', async () => {
    const r = await runCli(
      ['dump', '--json', '--offsets-decoder', '--files', '__consumer_offsets-1/00000000000000000000.log'],
      { cwd },
    )
    const recs = records(r.stdout)
    expect(recs.length).toBeGreaterThan(0)
    expect(recs[0]!.key).toEqual({ type: '2', data: { group: 'txg1' } })
    expect(recs[0]!.payload).toMatchObject({
      version: '3',
      data: { protocolType: 'consumer', members: [{ subscription: { topics: ['orders-10'], userData: '' } }] },
    })
    expect(recs.find((x) => (x.key as { type: string }).type === '1')!.payload).toMatchObject({
      version: '3',
      data: { leaderEpoch: -1, metadata: '' },
    })
  })

  it('--transaction-log-decoder: the decoded value with its tagged fields', async () => {
    const r = await runCli(
      [
        'dump',
        '--json',
        '--kafka-version',
        '3.9',
        '--transaction-log-decoder',
        '--files',
        '__transaction_state-2/00000000000000000000.log',
      ],
      { cwd },
    )
    const recs = records(r.stdout)
    expect(recs[0]!.key).toEqual({ type: '0', data: { transactionalId: 'tx-rw-1' } })
    expect(recs[0]!.payload).toMatchObject({
      version: '0',
      data: { producerId: 1, transactionStatus: 0, transactionPartitions: null },
    })
    // 4.4 (the default) names the status, as its kafka-dump-log does
    const r44 = await runCli(
      ['dump', '--json', '--transaction-log-decoder', '--files', '__transaction_state-2/00000000000000000000.log'],
      { cwd },
    )
    expect(records(r44.stdout)[0]!.payload).toMatchObject({
      version: '0',
      data: { producerId: 1, transactionStatus: 'Empty' },
    })
  })

  it("an unknown record type prints Kafka's sentence and is reported as a finding", async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-topics-'))
    try {
      const key = Buffer.from([0x00, 0x63, 0x00, 0x01, 0x67]) // type 99, then a string
      fs.writeFileSync(
        path.join(dir, '00000000000000000000.log'),
        segment({ records: [{ key, value: Buffer.from([0, 0]) }] }),
      )
      const r = await runCli(['dump', '--offsets-decoder', '--files', '00000000000000000000.log'], { cwd: dir })
      expect(r.stdout).toContain('key: Unknown record type 99 at offset 0, skipping.')
      expect(r.stderr).toContain('UNKNOWN_RECORD_TYPE')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})

describe('findings about internal-topic records point at the batch (issue #25: they said position -1)', () => {
  it('every decoder finding has its batch position from kafka-dump-log and the record offset, with --threads 1 and 2', async () => {
    const log = path.join(cwd, 'orders-11-0', '00000000000000000000.log')
    // Kafka's own dump of the same file: each batch's position and offset range
    const kafka = fs.readFileSync(
      path.join(FIXTURES, 'orders', 'dump', 'orders-11-0', '00000000000000000000.log.shallow.txt'),
      'utf8',
    )
    const batches = [...kafka.matchAll(/baseOffset: (\d+) lastOffset: (\d+) .* position: (\d+)/g)].map((m) => ({
      base: Number(m[1]),
      last: Number(m[2]),
      position: Number(m[3]),
    }))
    expect(batches.length).toBe(4)
    for (const threads of ['1', '2']) {
      for (const decoder of ['--offsets-decoder', '--transaction-log-decoder', '--cluster-metadata-decoder']) {
        const r = await runCli(['--json', '--threads', threads, decoder, log])
        const found = r.stdout
          .split('\n')
          .filter((l) => l.includes('"type":"finding"'))
          .map((l) => JSON.parse(l) as { position: number; firstOffset: number })
        expect(found.length, decoder).toBeGreaterThan(0)
        for (const f of found) {
          const b = batches.find((x) => x.position === f.position)
          expect(b, `${decoder}: position ${f.position}`).toBeDefined()
          expect(f.firstOffset).toBeGreaterThanOrEqual(b!.base)
          expect(f.firstOffset).toBeLessThanOrEqual(b!.last)
        }
      }
    }
  })
})
