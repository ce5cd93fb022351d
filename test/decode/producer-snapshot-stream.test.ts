// The producer snapshot read in windows (decode/producer-snapshot.ts): its entries against kafka-dump-log's own
// dump of every broker fixture snapshot, across window sizes; a file over the old 16 MiB cap read whole; a bad
// CRC and a cut last entry still findings (issue #25 part 2 item 5).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
// @ts-expect-error plain JS test helper
import { producerSnapshot } from '../../scripts/fuzz/encode.mjs'
import { producerSnapshotEntries, readProducerSnapshot, snapshotValid } from '../../src/decode/producer-snapshot.js'
import { FileSource } from '../../src/io/file-source.js'
import { FIXTURES } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const writeSnapshot = producerSnapshot as (
  file: string,
  n: number,
  o?: { openEvery?: number; badCrc?: boolean; cut?: number },
) => void

function fixtureSnapshots(): Array<{ file: string; expected: string }> {
  const out: Array<{ file: string; expected: string }> = []
  for (const sc of fs.readdirSync(FIXTURES)) {
    const dump = path.join(FIXTURES, sc, 'dump')
    if (!fs.existsSync(dump)) continue
    for (const part of fs.readdirSync(dump)) {
      if (!fs.statSync(path.join(dump, part)).isDirectory()) continue
      for (const f of fs.readdirSync(path.join(dump, part))) {
        const m = /^(\d{20}\.snapshot)\.deep\.txt$/.exec(f)
        const file = path.join(FIXTURES, sc, 'logs', part, m?.[1] ?? '')
        if (m !== null && fs.existsSync(file))
          out.push({ file, expected: fs.readFileSync(path.join(dump, part, f), 'utf8') })
      }
    }
  }
  return out
}

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-snap-'))

describe('producer snapshot read in windows', () => {
  const fixtures = fixtureSnapshots()
  it('has fixture snapshots with kafka-dump-log dumps', () => {
    expect(fixtures.length).toBeGreaterThan(0)
  })

  it('every fixture snapshot: the producer ids and epochs kafka-dump-log printed, in its order, for windows of 1, 2, 3 and 65536 entries', () => {
    for (const { file, expected } of fixtures) {
      const want = [
        ...expected.matchAll(/^producerId: (-?\d+) producerEpoch: (-?\d+) coordinatorEpoch: (-?\d+)/gm),
      ].map((m) => `${m[1]}/${m[2]}/${m[3]}`)
      for (const windowEntries of [1, 2, 3, 65536]) {
        const src = new FileSource(file)
        try {
          const s = readProducerSnapshot(src, { windowEntries })
          expect(snapshotValid(s), file).toBe(true)
          const got = [...producerSnapshotEntries(src, s, { windowEntries })].map(
            (e) => `${e.producerId}/${e.producerEpoch}/${e.coordinatorEpoch}`,
          )
          expect(got, file).toEqual(want)
        } finally {
          src.close()
        }
      }
    }
  })

  it('a 20 MiB snapshot (456,000 producers, over the old 16 MiB cap) is dumped whole', async () => {
    const d = tmp()
    const f = path.join(d, '00000000000000000000.snapshot')
    writeSnapshot(f, 456_000, { openEvery: 100_000 })
    expect(fs.statSync(f).size).toBeGreaterThan(16 * 1024 * 1024)
    const r = await runCli([f])
    expect(r.code).toBe(0)
    expect((r.stdout.match(/^producerId: /gm) ?? []).length).toBe(456_000)
    expect(r.stdout).toMatch(/^producerId: 455999 producerEpoch: 5 /m)
    fs.rmSync(d, { recursive: true })
  })

  it('a bad CRC: SNAPSHOT_CRC with both values and no entry printed (kafka-dump-log prints none)', async () => {
    const d = tmp()
    const f = path.join(d, '00000000000000000000.snapshot')
    writeSnapshot(f, 3000, { badCrc: true })
    const r = await runCli([f])
    expect(r.code).toBe(1)
    expect(r.stdout).not.toMatch(/producerId:/)
    expect(r.stderr).toMatch(
      /position 2: Snapshot is corrupt \(CRC is no longer valid\)\. Stored crc: \d+\. Computed crc: \d+/,
    )
    expect(r.stderr).toMatch(/SNAPSHOT_CRC/)
    fs.rmSync(d, { recursive: true })
  })

  it('a cut last entry: SNAPSHOT_SCHEMA at the position of that entry', () => {
    const d = tmp()
    const f = path.join(d, '00000000000000000000.snapshot')
    writeSnapshot(f, 200, { cut: 5 })
    const src = new FileSource(f)
    try {
      const s = readProducerSnapshot(src, { windowEntries: 7 })
      expect(s.schemaError?.position).toBe(10 + 199 * 46)
      expect(s.schemaError?.message).toContain('entry 199 at position 9164 has 41 of its 46 bytes')
      expect(s.crcComputed).toBeUndefined()
    } finally {
      src.close()
      fs.rmSync(d, { recursive: true })
    }
  })

  it('a .txnindex over 16 MiB is read by reconcile, not refused', async () => {
    const d = tmp()
    const p = path.join(d, 't-0')
    fs.mkdirSync(p)
    fs.copyFileSync(
      path.join(FIXTURES, 'transactions', 'logs', 'tx-out-0', '00000000000000000000.log'),
      path.join(p, '00000000000000000000.log'),
    )
    const entry = Buffer.alloc(34)
    entry.writeBigInt64BE(999n, 2)
    entry.writeBigInt64BE(1n, 10)
    entry.writeBigInt64BE(2n, 18)
    entry.writeBigInt64BE(1n, 26)
    const fd = fs.openSync(path.join(p, '00000000000000000000.txnindex'), 'w')
    const chunk = Buffer.concat(Array.from({ length: 10_000 }, () => entry))
    for (let i = 0; i < 50; i++) fs.writeSync(fd, chunk)
    fs.closeSync(fd)
    const r = await runCli(['reconcile', '--json', p])
    expect(r.stderr).not.toMatch(/FILE_TOO_LARGE/)
    expect(r.stdout + r.stderr).toMatch(/TXNINDEX_/)
    fs.rmSync(d, { recursive: true })
  })
})
