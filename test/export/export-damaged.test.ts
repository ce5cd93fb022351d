// export reads a damaged partition once (scan/export-read.ts): at the first frame that is not clean, every later
// batch waits for the partition's final facts, and each segment's batches are handed out as the record pass of the
// two passes (scan/export-scan.ts exportRecords, readLog without resync) frames them. The two passes are the
// reference here: on copies of fixture partitions damaged at positions taken from kafka-dump-log's stored text, the
// one read must answer (not fall back) and hand out the same segments, records, visibilities and findings, in order.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import type { Finding } from '../../src/analysis/findings.js'
import { exportInOneRead } from '../../src/scan/export-read.js'
import type { ExportVisitor } from '../../src/scan/export-scan.js'
import { exportRecords, visibilityFacts } from '../../src/scan/export-scan.js'
import { resolvePartitions } from '../../src/scan/partition-paths.js'
import type { KafkaBatch } from '../support/damage-copy.js'
import { flipByte, kafkaBatches, overwrite } from '../support/damage-copy.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'
import { LogDir, LogWriter } from '../support/txn-segment-builder.js'

type Batch = KafkaBatch
const write = overwrite
const flip = flipByte

/** name, damage, and for damage the record pass reads without a finding, what shows it was written */
const CLASSES: Array<[string, (f: string, bs: Batch[]) => void, quiet?: (seen: string[]) => boolean]> = [
  ['a data batch', (f, bs) => flip(f, bs.filter((b) => !b.control)[0]!.position + 70)],
  ['a marker', (f, bs) => flip(f, bs.find((b) => b.control)!.position + bs.find((b) => b.control)!.size - 1)],
  ['a CRC field', (f, bs) => flip(f, bs[Math.floor(bs.length / 2)]!.position + 18)],
  [
    'zeros over a data batch mid-segment',
    (f, bs) => {
      const b = bs.filter((x) => !x.control)[1]!
      write(f, b.position, Buffer.alloc(b.size))
    },
  ],
  ['40 bytes of 0xFF', (f, bs) => write(f, bs[Math.floor(bs.length / 2)]!.position, Buffer.alloc(40, 0xff))],
  [
    'a length field',
    (f, bs) => {
      const x = Buffer.alloc(4)
      x.writeInt32BE(0x7fffff00)
      write(f, bs[Math.min(3, bs.length - 1)]!.position + 8, x)
    },
  ],
  // the CRC does not cover baseOffset: a batch that says it starts at 0 goes back below rows already written, and
  // its transaction's end reaches back to them (the two passes' answer is given from what the one read held)
  [
    'offsets rewritten to 0',
    (f, bs) => write(f, bs[Math.floor(bs.length / 2)]!.position, Buffer.alloc(8)),
    // offset 0 handed out twice
    (seen) => seen.filter((l) => l.split(' ')[1] === '0').length > 1,
  ],
  [
    // a batchLength grown into the next batch: the scan resyncs inside it, the record pass takes the grown batch
    'a length grown into the next batch',
    (f, bs) => {
      const x = Buffer.alloc(4)
      x.writeInt32BE(bs[0]!.size - 12 + Math.max(1, Math.floor(bs[1]!.size / 2)))
      write(f, bs[0]!.position + 8, x)
    },
  ],
  [
    'a truncated tail',
    (f, bs) => {
      const b = bs[bs.length - 1]!
      fs.truncateSync(f, b.position + Math.floor(b.size / 2))
    },
  ],
]

const PARTITIONS: Array<[fixture: string, partition: string]> = [
  [path.join(FIXTURES, 'orders'), 'orders-11-0'],
  [path.join(FIXTURES, 'interleaved'), 'mixed-0'],
  [path.join(FIXTURES_44, 'transactions'), 'tx-out-0'],
  [path.join(FIXTURES_44, 'transactions'), '__transaction_state-0'],
]

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-export-damaged-'))
afterAll(() => fs.rmSync(work, { recursive: true, force: true }))

/** what a reader hands out, in order: segments, records with their batch and visibility, and then its findings */
function recorder(): { visit: ExportVisitor; seen: string[] } {
  const seen: string[] = []
  return {
    seen,
    visit: {
      segment: (f) => seen.push(`segment ${path.basename(f.path)}`),
      restart: () => {
        seen.length = 0
      },
      record: (rec, b, vis, control) =>
        seen.push(
          `${b.position} ${rec.offset} ${control} ${vis.visibleReadCommitted} ${vis.visibleReadUncommitted} ${vis.transactionOutcome} ${vis.fromOffset} ${rec.value?.length ?? -1}`,
        ),
    },
  }
}

describe('export reads a damaged partition once, as the two passes answer', () => {
  let n = 0
  for (const [fixture, partition] of PARTITIONS) {
    for (const [name, damage, quiet] of CLASSES) {
      // a coordinator's partition holds no markers
      if (name === 'a marker' && partition.startsWith('__')) continue
      it(`${path.basename(fixture)} ${partition}: ${name}`, (ctx) => {
        const dump = path.join(fixture, 'dump', partition)
        if (!fs.existsSync(dump)) ctx.skip(`${dump} (kafka-dump-log's text) is absent`)
        const text = fs.readdirSync(dump).filter((x) => x.endsWith('.log.shallow.txt'))[0]!
        const logs = path.join(work, String(n++))
        fs.mkdirSync(logs)
        for (const f of fs.readdirSync(path.join(fixture, 'logs')))
          if (f === partition || !fs.statSync(path.join(fixture, 'logs', f)).isDirectory())
            fs.cpSync(path.join(fixture, 'logs', f), path.join(logs, f), { recursive: true })
        const seg = path.join(logs, partition, text.replace('.shallow.txt', ''))
        damage(seg, kafkaBatches(path.join(dump, text)))
        const dir = resolvePartitions([path.join(logs, partition)]).partitions[0]!

        const once = recorder()
        const onceFindings: Finding[] = []
        const scanned = exportInOneRead(dir, new Map(), once.visit, onceFindings)
        expect(scanned, 'the one read fell back to the two passes').not.toBeNull()

        const two = recorder()
        const twoFindings: Finding[] = []
        const { facts } = visibilityFacts(dir, new Map())
        exportRecords(dir, facts, two.visit, twoFindings)

        if (quiet === undefined)
          expect(twoFindings.length, 'the damage gives the record pass no finding: not written?').toBeGreaterThan(0)
        else
          expect(quiet(two.seen), 'the damage is not seen in what the record pass hands out: not written?').toBe(true)
        expect(once.seen).toEqual(two.seen)
        expect(onceFindings).toEqual(twoFindings)
      })
    }
  }
})

// A segment that shrinks while the one read reads it cannot be read again to the same bytes: the record pass's
// finding where the read failed (FILE_CHANGED), the rows read before it, and no second read (main's build gave up
// and ran the two passes over the shrunk file).
describe('export of a segment that shrinks while read', () => {
  it('gives FILE_CHANGED where the read failed and the rows before it, in one read', () => {
    const d = new LogDir()
    try {
      const w = new LogWriter()
      for (let i = 0; i < 40; i++) w.plain(2, -1n, 50_000)
      const dir = resolvePartitions([d.segment('shrinks', 0, 0n, w.batches)]).partitions[0]!
      const log = dir.files.find((f) => f.kind === 'log')!.path
      const size = fs.statSync(log).size
      let offsets = 0
      const findings: Finding[] = []
      const scanned = exportInOneRead(
        dir,
        new Map(),
        {
          segment: () => {},
          record: () => {
            // the first row is handed out while the scan's first window is read: the file is cut behind it
            if (offsets++ === 0) fs.truncateSync(log, Math.floor(size / 2))
          },
        },
        findings,
      )
      expect(scanned, 'the one read fell back to the two passes').not.toBeNull()
      expect(findings.map((f) => f.code)).toEqual(['FILE_CHANGED'])
      expect(findings[0]!.position).toBeLessThanOrEqual(Math.floor(size / 2) + 1)
      expect(offsets).toBeGreaterThan(0)
      expect(offsets).toBeLessThan(80)
    } finally {
      d.remove()
    }
  })
})
