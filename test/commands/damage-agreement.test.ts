// Damaged copies of broker fixtures, one per damage class of the fuzzer and the big tier (scripts/fuzz/classes.mjs:
// bad-crc-batches, resync, truncated-during-read; and the classes of issue 29: a data batch, a marker, a run of
// zeros mid-segment, a run of 0xFF, a damaged length field, a truncated file), made in a temp dir at positions
// taken from kafka-dump-log's stored text beside the fixture (dump/<partition>/<segment>.log.shallow.txt). Every
// command that reads partition data (dump, reconcile, txns, lso, transactions, cleanup, report's model) must
// agree on the log end, the counts and the damage findings; the undamaged truth is the brokers' expected.json.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import type { KafkaBatch } from '../support/damage-copy.js'
import { flipByte, kafkaBatches as dumpedBatches, overwrite } from '../support/damage-copy.js'
import { FIXTURES } from '../support/paths.js'
import { buildReportModel } from '../../src/commands/report.js'

type Batch = KafkaBatch
interface Truth {
  logEndOffset: number
  readCommittedRecords: number
  readUncommittedRecords: number
}
interface Found {
  code: string
  file?: string
  position?: number
}

/** the batches of a segment as Kafka's kafka-dump-log printed them (the fixture's stored text) */
function kafkaBatches(fixture: string, partition: string, segment: string): Batch[] {
  return dumpedBatches(path.join(FIXTURES, fixture, 'dump', partition, `${segment}.log.shallow.txt`))
}

function truthOf(fixture: string, partition: string): Truth {
  const e = JSON.parse(fs.readFileSync(path.join(FIXTURES, fixture, 'expected.json'), 'utf8')) as {
    partitions: Array<Truth & { topic: string; partition: number }>
  }
  const p = e.partitions.find((x) => `${x.topic}-${x.partition}` === partition)
  if (p === undefined) throw new Error(`${fixture}/expected.json has no ${partition}`)
  return p
}

interface DamageCase {
  /** the fuzzer's or the big tier's class, or issue 29's name for it */
  name: string
  fixture: string
  partition: string
  segment: string
  /** writes the damage into `file`, a copy of the segment, at positions from `batches` */
  damage: (file: string, batches: Batch[]) => void
  /** the damage leaves every offset readable (a payload byte): counts and log end are the undamaged truth */
  intact?: boolean
}

const write = overwrite
const flip = flipByte
const dataBatches = (bs: Batch[]): Batch[] => bs.filter((b) => !b.control)
const markers = (bs: Batch[]): Batch[] => bs.filter((b) => b.control)

const ORDERS = { fixture: 'orders', partition: 'orders-11-0', segment: '00000000000000000000' }
const MIXED = { fixture: 'interleaved', partition: 'mixed-0', segment: '00000000000000000046' }

const CASES: DamageCase[] = [
  // bad-crc-batches: a record byte of a data batch (the header and framing hold: only the CRC says so)
  {
    name: 'bad-crc-batches (data batch damaged)',
    ...ORDERS,
    intact: true,
    damage: (f, bs) => {
      const b = dataBatches(bs)[0]!
      flip(f, b.position + b.size - 1)
    },
  },
  // a COMMIT marker's record byte: its CRC fails, so its type and epoch cannot be trusted
  {
    name: 'marker damaged',
    ...ORDERS,
    damage: (f, bs) => {
      const b = markers(bs)[0]!
      flip(f, b.position + b.size - 1)
    },
  },
  // issue 29: 563 zero bytes at 511, the whole second data batch
  {
    name: 'mid-segment zeros',
    ...ORDERS,
    damage: (f, bs) => {
      const b = dataBatches(bs)[1]!
      write(f, b.position, Buffer.alloc(b.size))
    },
  },
  // resync (the fuzzer's class: garbage the dump searches past) and issue 29's 40 bytes of 0xFF
  {
    name: 'resync (0xFF run)',
    ...MIXED,
    damage: (f, bs) => {
      const b = bs[Math.floor(bs.length / 2)]!
      write(f, b.position, Buffer.alloc(40, 0xff))
    },
  },
  // the size field of a batch in the middle of a segment
  {
    name: 'length field damaged',
    ...MIXED,
    damage: (f, bs) => {
      const b = bs[3]!
      const x = Buffer.alloc(4)
      x.writeInt32BE(0x7fffff00)
      write(f, b.position + 8, x)
    },
  },
  // truncated-during-read (big tier) / a truncated file: the last batch, a marker, cut in the middle
  {
    name: 'truncated file (truncated-during-read)',
    ...ORDERS,
    damage: (f, bs) => {
      const b = bs[bs.length - 1]!
      fs.truncateSync(f, b.position + Math.floor(b.size / 2))
    },
  },
]

const DAMAGE_CODES = new Set(['BAD_LENGTH', 'BAD_MAGIC', 'TRUNCATED_TAIL', 'SHORT_TAIL', 'RECORD_COUNT_MISMATCH'])
/** findings that blame an index or a snapshot: never what damage in the log gives */
const INDEX_BLAME = [
  'TXNINDEX_UNEXPECTED_ENTRY',
  'TXNINDEX_MISSING_ENTRY',
  'TXNINDEX_FIRST_OFFSET_MISMATCH',
  'CONSUMER_VIEW_DIFFERS',
  'SNAPSHOT_TXN_MISMATCH',
]
const NOW = '2026-12-01T00:00:00Z'

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-damage-agreement-'))
afterAll(() => {
  fs.rmSync(work, { recursive: true, force: true })
})

/** a copy of the fixture's log dir (checkpoints, __transaction_state beside the partition) with the damage written */
function damagedCopy(c: DamageCase, i: number): { logs: string; dir: string; segment: string; batches: Batch[] } {
  const logs = path.join(work, `case-${i}`)
  fs.cpSync(path.join(FIXTURES, c.fixture, 'logs'), logs, { recursive: true })
  const dir = path.join(logs, c.partition)
  const segment = path.join(dir, `${c.segment}.log`)
  const batches = kafkaBatches(c.fixture, c.partition, c.segment)
  c.damage(segment, batches)
  return { logs, dir, segment, batches }
}

/** the damage findings (code, file name, position) of a list, each once, sorted */
function damageOf(fs_: readonly Found[], controlPositions: Set<number>, segment: string): string[] {
  return fs_
    .filter(
      (f) =>
        f.file === segment &&
        (DAMAGE_CODES.has(f.code) || (f.code === 'CRC_MISMATCH' && controlPositions.has(f.position!))),
    )
    .map((f) => `${f.code}@${f.position}`)
    .sort()
}

describe('damaged copies: every command agrees on log end, counts and damage findings', () => {
  CASES.forEach((c, i) => {
    it(c.name, async () => {
      const { logs, dir, segment, batches } = damagedCopy(c, i)
      const truth = truthOf(c.fixture, c.partition)
      const controls = new Set(markers(batches).map((b) => b.position))

      // dump (JSON lines): its findings and the segment's summary
      const dump = await runCli(['--json', dir])
      const events = dump.stdout
        .split('\n')
        .filter((l) => l !== '')
        .map((l) => JSON.parse(l) as Record<string, unknown>)
      const dumpFindings = events.filter((e) => e.type === 'finding') as unknown as Found[]
      const summaries = events.filter((e) => e.type === 'summary') as Array<{
        file: string
        lastOffset: number | null
        damagedRegions: number
        trailingBytes: number
      }>
      const dumpDamage = damageOf(dumpFindings, controls, segment)

      const rec = JSON.parse((await runCli(['reconcile', '--json', dir])).stdout) as {
        partitions: Array<{ logEndOffset: number; readCommitted: number; readUncommitted: number; findings: Found[] }>
      }
      const r = rec.partitions[0]!
      const txns = JSON.parse((await runCli(['txns', '--json', dir])).stdout) as {
        partitions: Array<{
          logEndOffset: number
          findings?: Found[]
          runs: Array<{
            kind: string
            producerId?: number | string
            firstOffset?: number | string
            outcome?: string
            damage?: { file: string; position: number }
          }>
        }>
      }
      const t = txns.partitions[0]!
      const lsoRun = await runCli(['lso', '--json', '--now', NOW, dir])
      const lso = JSON.parse(lsoRun.stdout) as {
        hanging: boolean
        partitions: Array<{
          blocked: boolean
          blocking: null | { hanging: boolean; commands: string[]; outcome: string; damage?: unknown }
          findings: Found[]
        }>
      }
      const lsoText = await runCli(['lso', '--now', NOW, dir])
      const tx = JSON.parse((await runCli(['transactions', '--json', logs])).stdout) as {
        findings: Found[]
        transactions: Array<{ outcome: string; partitions: Array<{ topic: string; partition: number }> }>
      }
      const cleanup = JSON.parse((await runCli(['cleanup', '--json', '--now', NOW, dir])).stdout) as {
        partitions: Array<{ logEndOffset: number; lastStableOffset: number; findings: Array<{ code: string }> }>
      }
      const report = buildReportModel({ paths: [dir], output: '-' })
      const model = JSON.parse(
        JSON.stringify(report.model, (_k, v: unknown) => (typeof v === 'bigint' ? Number(v) : v)),
      ) as {
        partitions: Array<{
          logEndOffset: number | string
          readCommitted: number
          readUncommitted: number
          items: Array<{
            kind: string
            producerId: number
            firstOffset: number
            outcome: string
            empty: boolean
          }> | null
          open: Array<{ producerId: number; firstOffset: number; outcome: string }>
        }>
        findings: Found[]
      }

      // the log end: dump's last offset read + 1, and every partition command's
      const lastRead = Math.max(...summaries.filter((s) => s.lastOffset !== null).map((s) => s.lastOffset!))
      const leo = lastRead + 1
      expect(r.logEndOffset).toBe(leo)
      expect(t.logEndOffset).toBe(leo)
      expect(cleanup.partitions[0]!.logEndOffset).toBe(leo)
      expect(Number(model.partitions[0]!.logEndOffset)).toBe(leo)
      // the counts: reconcile's and the report's
      expect([model.partitions[0]!.readCommitted, model.partitions[0]!.readUncommitted]).toEqual([
        r.readCommitted,
        r.readUncommitted,
      ])
      if (c.intact === true) {
        // nothing unreadable: the undamaged truth, as the consumers counted it
        expect([r.logEndOffset, r.readCommitted, r.readUncommitted]).toEqual([
          truth.logEndOffset,
          truth.readCommittedRecords,
          truth.readUncommittedRecords,
        ])
      } else if (c.name.startsWith('truncated')) {
        expect(leo).toBeLessThan(truth.logEndOffset)
      } else {
        // the damage is mid-segment: reading resumed after it, as the dump's does, so the log end is the broker's
        expect(leo).toBe(truth.logEndOffset)
      }

      // the damage findings: the same (code, position) in the dump and in every partition command, once each
      const expectedDamage = c.intact === true ? [] : dumpDamage
      if (c.intact !== true) expect(dumpDamage.length).toBeGreaterThan(0)
      expect(damageOf(r.findings, controls, segment)).toEqual(expectedDamage)
      expect(damageOf(lso.partitions[0]!.findings, controls, segment)).toEqual(expectedDamage)
      expect(damageOf(model.findings, controls, segment)).toEqual(expectedDamage)
      expect(damageOf(tx.findings, controls, segment)).toEqual(expectedDamage)
      // cleanup's findings carry no position in its JSON: the codes
      expect(
        [...new Set(cleanup.partitions[0]!.findings.map((f) => f.code).filter((x) => DAMAGE_CODES.has(x)))].sort(),
      ).toEqual([...new Set(expectedDamage.map((d) => d.split('@')[0]!).filter((x) => x !== 'CRC_MISMATCH'))].sort())
      const keys = r.findings.map(
        (f) => `${f.code}@${f.file ?? ''}:${f.position ?? ''} ${(f as { message?: string }).message ?? ''}`,
      )
      expect(new Set(keys).size).toBe(keys.length)
      // no finding blames an intact index for what the damage hides
      for (const list of [r.findings, lso.partitions[0]!.findings, model.findings]) {
        expect(list.filter((f) => INDEX_BLAME.includes(f.code)).map((f) => f.code)).toEqual([])
      }

      // a transaction the damage may hide the end of: unknown, named with the damage, never abort advice
      const unknown = r.findings.filter((f) => f.code === 'TXN_OUTCOME_UNKNOWN')
      for (const f of unknown) expect(f.file).toBe(segment)
      const unknownRuns = t.runs.filter((x) => x.outcome === 'unknown')
      expect(unknownRuns.length).toBe(unknown.length)
      for (const x of unknownRuns) expect(x.damage?.file).toBe(segment)
      if (c.intact !== true && c.fixture === 'orders') expect(unknown.length).toBeGreaterThan(0)
      // the report's page draws each transaction with txns' outcome: 'unknown' where the damage may hide its end
      const drawn = new Map<string, string>()
      for (const x of [
        ...(model.partitions[0]!.items ?? []),
        ...model.partitions[0]!.open.map((o) => ({ ...o, kind: 'txn', empty: false })),
      ])
        if (x.kind === 'txn' && !x.empty) drawn.set(`${x.producerId}:${x.firstOffset}`, x.outcome)
      expect(model.partitions[0]!.items).not.toBeNull()
      expect([...drawn].sort()).toEqual(
        t.runs
          .filter((x) => x.kind === 'transaction')
          .map((x) => [`${x.producerId}:${x.firstOffset}`, x.outcome])
          .sort(),
      )
      const b = lso.partitions[0]!.blocking
      if (b !== null) {
        // the undamaged partition blocks nothing: whatever blocks now is the damage's
        expect(b.outcome).toBe('unknown')
        expect(b.hanging).toBe(false)
        expect(b.commands).toEqual([])
      }
      expect(lso.hanging).toBe(false)
      expect(lsoText.stdout).not.toContain('kafka-transactions.sh --bootstrap-server')
      expect(lsoText.stdout).not.toContain('HANGING')
      // transactions: the coordinator's partition without a readable marker is said to be the damage's, not hanging
      const txFindings = tx.transactions.flatMap(
        (x) => (x as { findings?: Array<Found & { message: string }> }).findings ?? [],
      )
      expect(txFindings.filter((f) => f.code === 'TXN_PARTITION_NO_MARKER' && f.message.includes(c.partition))).toEqual(
        [],
      )
      if (unknown.length > 0) {
        // transactions joins across partitions: the damaged partition's transaction is unknown there too
        const inPartition = tx.transactions.filter((x) =>
          x.partitions.some((p) => `${p.topic}-${p.partition}` === c.partition),
        )
        expect(inPartition.some((x) => x.outcome === 'unknown')).toBe(true)
      }
      // the dump: only bytes after the last batch are trailing
      const seg = summaries.find((s) => s.file === segment)!
      if (!c.name.startsWith('truncated')) expect(seg.trailingBytes).toBe(0)
    })
  })

  it("--no-resync restores Kafka's stop in every partition command (the dump's --no-resync log end)", async () => {
    const c = CASES.find((x) => x.name === 'mid-segment zeros')!
    const { logs, dir } = damagedCopy(c, 100)
    const dump = await runCli(['--json', '--no-resync', dir])
    const last = dump.stdout
      .split('\n')
      .filter((l) => l.includes('"type":"summary"'))
      .map((l) => JSON.parse(l) as { lastOffset: number })
    const leo = Math.max(...last.map((s) => s.lastOffset)) + 1
    const rec = JSON.parse((await runCli(['reconcile', '--json', '--no-resync', dir])).stdout) as {
      partitions: Array<{ logEndOffset: number }>
    }
    const txns = JSON.parse((await runCli(['txns', '--json', '--no-resync', dir])).stdout) as {
      partitions: Array<{ logEndOffset: number }>
    }
    const cleanup = JSON.parse((await runCli(['cleanup', '--json', '--no-resync', '--now', NOW, dir])).stdout) as {
      partitions: Array<{ logEndOffset: number }>
    }
    const report = buildReportModel({ paths: [dir], output: '-', resync: false })
    expect([
      rec.partitions[0]!.logEndOffset,
      txns.partitions[0]!.logEndOffset,
      cleanup.partitions[0]!.logEndOffset,
      Number(report.model.partitions[0]!.logEndOffset),
    ]).toEqual([leo, leo, leo, leo])
    expect(leo).toBeLessThan(truthOf(c.fixture, c.partition).logEndOffset)
    const lso = await runCli(['lso', '--no-resync', '--now', NOW, dir])
    expect(lso.stdout).not.toContain('kafka-transactions.sh --bootstrap-server')
    expect((await runCli(['transactions', '--no-resync', logs])).code).toBe(1)
  })
})
