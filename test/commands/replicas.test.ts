// tsdump replicas on the 3-broker fixtures (fixtures/broker-4.4/replicas-clean, replicas-unclean), against
// truth from outside tsdump: expected.json (the brokers' own truncations from their server.log, kafka-dump-log's
// batches past the divergence, the producer's acknowledged records a consumer no longer read after the
// election) and an independent reader of the raw batches below, written from the v2 batch layout
// (Kafka DefaultRecordBatch) and not from tsdump's decoder or analysis.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'

const TREE = path.join(REPO_ROOT, 'fixtures/broker-4.4')
const UNCLEAN = path.join(TREE, 'replicas-unclean')
const CLEAN = path.join(TREE, 'replicas-clean')

/** one v2 batch as the layout has it: baseOffset int64 @0, batchLength int32 @8, partitionLeaderEpoch int32 @12,
 * magic int8 @16, crc uint32 @17, attributes int16 @21, lastOffsetDelta int32 @23, producerId int64 @43,
 * producerEpoch int16 @51, baseSequence int32 @53, recordsCount int32 @57 */
interface RawBatch {
  baseOffset: number
  lastOffset: number
  epoch: number
  crc: number
  producerId: number
  control: boolean
  count: number
}

function rawBatches(partitionDir: string): RawBatch[] {
  const out: RawBatch[] = []
  for (const name of fs
    .readdirSync(partitionDir)
    .filter((n) => n.endsWith('.log'))
    .sort()) {
    const buf = fs.readFileSync(path.join(partitionDir, name))
    let pos = 0
    while (pos + 12 <= buf.length) {
      const len = buf.readInt32BE(pos + 8)
      if (len <= 0 || pos + 12 + len > buf.length) break
      const base = Number(buf.readBigInt64BE(pos))
      out.push({
        baseOffset: base,
        lastOffset: base + buf.readInt32BE(pos + 23),
        epoch: buf.readInt32BE(pos + 12),
        crc: buf.readUInt32BE(pos + 17),
        producerId: Number(buf.readBigInt64BE(pos + 43)),
        control: (buf.readInt16BE(pos + 21) & 0x20) !== 0,
        count: buf.readInt32BE(pos + 57),
      })
      pos += 12 + len
    }
  }
  return out
}

const same = (a: RawBatch, b: RawBatch | undefined): boolean =>
  b !== undefined && a.lastOffset === b.lastOffset && a.crc === b.crc && a.epoch === b.epoch

/** The first batch of `follower` the leader does not hold as it is (replication copies batches unchanged). */
function independentDivergence(follower: RawBatch[], leader: RawBatch[]): { offset: number | null; past: RawBatch[] } {
  const byBase = new Map(leader.map((b) => [b.baseOffset, b]))
  const at = follower.findIndex((b) => !same(b, byBase.get(b.baseOffset)))
  return at < 0 ? { offset: null, past: [] } : { offset: follower[at]!.baseOffset, past: follower.slice(at) }
}

interface JsonBatch {
  baseOffset: number
  lastOffset: number
  count: number
  partitionLeaderEpoch: number
  crc: number
  producerId: number
  isControl: boolean
  marker: string | null
  records: Array<{ offset: number; key: string | null }> | null
}
interface JsonReplica {
  broker: number
  logDir: string
  isLeader: boolean
  divergenceOffset: number | null
  recordsPastDivergence: number
  batchesPastDivergence: JsonBatch[]
  logStartOffset: number
  logEndOffset: number
  highWatermark: number | null
  lastStableOffset: number
  leaderEpoch: number | null
  epochCacheFrom: string
}
interface JsonPartition {
  topic: string
  partition: number
  compared: boolean
  leader: number
  replicas: JsonReplica[]
  findings: Array<{ code: string; severity: string; file?: string; position?: number; message: string }>
}
interface Out {
  schemaVersion: number
  partitions: JsonPartition[]
}

interface ExpBatch {
  baseOffset: number
  lastOffset: number
  count: number
  partitionLeaderEpoch: number
  producerId: number
  isControl: boolean
  crc: number
  records: Array<{ offset: number; key?: string; marker?: string }>
}
interface ExpCopy {
  dir: string
  broker: number
  live: { logStartOffset: number; logEndOffset: number; leaderEpoch: number }
  highWatermark: number | null
  divergence: { truncatedTo: number | null } | null
  batchesPastDivergence: ExpBatch[] | null
  leaderEpochCheckpoint: number[][] | null
}
interface ExpPartition {
  topic: string
  partition: number
  copies: ExpCopy[]
  lostRecords: Array<{ offset: number; key: string }> | null
  notReadCommitted: unknown[] | null
  reads: { final?: { leader: number; lastStableOffset: number } }
}
const expected = (dir: string): { replicaPartitions: ExpPartition[] } =>
  JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8'))

async function replicasJson(cwd: string, dirs: string[]): Promise<{ code: number; out: Out; stderr: string }> {
  const r = await runCli(['replicas', '--json', ...dirs], { cwd })
  return { code: r.code, out: JSON.parse(r.stdout) as Out, stderr: r.stderr }
}

// the notes of expected.json: compare the copies taken before the old leaders truncated with the final leader (it never truncates)
const UNCLEAN_DIRS = ['before/broker-1', 'before/broker-2', 'broker-3']

describe('tsdump replicas on replicas-unclean (before/broker-1, before/broker-2 and the new leader broker-3)', async () => {
  const exp = expected(UNCLEAN)
  const { code, out } = await replicasJson(UNCLEAN, UNCLEAN_DIRS)
  const userPartitions = exp.replicaPartitions.filter((p) => !p.topic.startsWith('__'))

  it('exits 1: copies diverge', () => {
    expect(out.schemaVersion).toBe(1)
    expect(code).toBe(1)
  })

  for (const p of userPartitions) {
    describe(`${p.topic}-${p.partition}`, () => {
      const got = (): JsonPartition => out.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)!
      it("the leader is the broker the cluster elected (expected.json reads.final.leader), and every copy's offsets are the broker's", () => {
        expect(got().leader).toBe(p.reads.final!.leader)
        for (const r of got().replicas) {
          const c = p.copies.find((x) => x.dir === r.logDir)!
          expect(
            { start: r.logStartOffset, end: r.logEndOffset, hw: r.highWatermark, epoch: r.leaderEpoch },
            r.logDir,
          ).toEqual({
            start: c.live.logStartOffset,
            end: c.live.logEndOffset,
            hw: c.highWatermark,
            epoch: c.leaderEpochCheckpoint!.at(-1)![0],
          })
        }
      })
      it("divergence offset and batches past it equal the raw batches and the brokers' own truncation", () => {
        const leaderDir = got().replicas.find((r) => r.isLeader)!.logDir
        const leaderBatches = rawBatches(path.join(UNCLEAN, leaderDir, `${p.topic}-${p.partition}`))
        let diverging = 0
        for (const r of got().replicas.filter((x) => !x.isLeader)) {
          const mine = independentDivergence(
            rawBatches(path.join(UNCLEAN, r.logDir, `${p.topic}-${p.partition}`)),
            leaderBatches,
          )
          const c = p.copies.find((x) => x.dir === r.logDir)!
          expect(r.divergenceOffset, `${r.logDir}: raw batches`).toBe(mine.offset)
          // the broker's server.log: where it truncated this copy when it rejoined (null: it did not)
          expect(r.divergenceOffset, `${r.logDir}: the broker's truncation`).toBe(c.divergence!.truncatedTo)
          const shape = (b: { baseOffset: number; lastOffset: number; crc: number; producerId: number }): unknown => ({
            base: b.baseOffset,
            last: b.lastOffset,
            crc: b.crc,
            pid: b.producerId,
          })
          expect(r.batchesPastDivergence.map(shape), `${r.logDir}: raw batches`).toEqual(mine.past.map(shape))
          expect(
            r.batchesPastDivergence.map((b) => ({ ...(shape(b) as object), epoch: b.partitionLeaderEpoch })),
            `${r.logDir}: kafka-dump-log`,
          ).toEqual(
            (c.batchesPastDivergence ?? []).map((b) => ({ ...(shape(b) as object), epoch: b.partitionLeaderEpoch })),
          )
          // records: offsets and keys as kafka-dump-log printed them, markers by their type
          expect(
            r.batchesPastDivergence.map((b) =>
              b.isControl
                ? [{ offset: b.baseOffset, marker: b.marker }]
                : b.records!.map((x) => ({ offset: x.offset, key: x.key })),
            ),
            r.logDir,
          ).toEqual((c.batchesPastDivergence ?? []).map((b) => b.records))
          expect(r.recordsPastDivergence).toBe(mine.past.reduce((n, b) => n + b.count, 0))
          if (mine.offset !== null) diverging++
        }
        expect(got().findings.filter((f) => f.code === 'REPLICA_DIVERGED').length).toBe(diverging)
      })
      it('the acknowledged records the election lost are among the records past the divergence', () => {
        const past = got().replicas.flatMap((r) => r.batchesPastDivergence.flatMap((b) => b.records ?? []))
        for (const l of p.lostRecords ?? [])
          expect(past, `lost ${l.key}@${l.offset}`).toContainEqual({ offset: l.offset, key: l.key })
      })
    })
  }

  it('a lost COMMIT marker leaves the transaction open on the new leader: said, with the LSO the consumer saw', () => {
    const withOpen = userPartitions.filter((p) => (p.notReadCommitted ?? []).length > 0)
    expect(withOpen.length).toBeGreaterThan(0)
    for (const p of withOpen) {
      const got = out.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)!
      const lost = got.findings.filter((f) => f.code === 'REPLICA_MARKER_LOST')
      expect(lost.length, `${p.topic}-${p.partition}`).toBeGreaterThan(0)
      expect(lost[0]!.message).toContain(`LSO stays at ${p.reads.final!.lastStableOffset}`)
      expect(got.replicas.find((r) => r.isLeader)!.lastStableOffset).toBe(p.reads.final!.lastStableOffset)
    }
    for (const p of userPartitions.filter((x) => (x.notReadCommitted ?? []).length === 0)) {
      expect(
        out.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)!.findings.map((f) => f.code),
      ).not.toContain('REPLICA_MARKER_LOST')
    }
  })

  it('the final copies agree (broker-1..3 after they truncated): exit 0', async () => {
    const r = await replicasJson(UNCLEAN, ['broker-1', 'broker-2', 'broker-3'])
    expect(r.code).toBe(0)
    expect(r.out.partitions.flatMap((p) => p.replicas).filter((x) => x.divergenceOffset !== null)).toEqual([])
  })

  it('text fits 80 columns and names the divergence', async () => {
    const r = await runCli(['replicas', ...UNCLEAN_DIRS], { cwd: UNCLEAN })
    expect(r.code).toBe(1)
    for (const line of r.stdout.split('\n')) expect(line.length, line).toBeLessThanOrEqual(80)
    expect(r.stdout).toContain('broker 1 from offset 8')
  })

  it('text: the copies on one offset axis, the divergence marked where the brokers truncated', async () => {
    const r = await runCli(['replicas', ...UNCLEAN_DIRS], { cwd: UNCLEAN })
    for (const p of userPartitions) {
      const block = r.stdout.split('\n\n').find((b) => b.startsWith(`${p.topic}-${p.partition}:`))!
      const cuts = p.copies.filter((c) => UNCLEAN_DIRS.includes(c.dir) && c.divergence?.truncatedTo != null)
      if (cuts.length === 0) {
        expect(block, `${p.topic}-${p.partition}`).not.toContain('per column')
        continue
      }
      expect(block).toContain('offsets 0..')
      for (const c of cuts) {
        // one column per offset in this fixture: `=` up to the truncation point, `x` from it to the log end
        const row = block.split('\n').find((l) => new RegExp(`^  ${c.broker}\\s{2,}[=x]`).test(l))!
        const cells = row.replace(/^ {2}\S+\s+/, '')
        expect(cells, `${p.topic}-${p.partition} ${c.dir}`).toBe(
          '='.repeat(c.divergence!.truncatedTo!) + 'x'.repeat(c.live.logEndOffset - c.divergence!.truncatedTo!),
        )
      }
      const marks = block.split('\n').find((l) => /^\s+\^/.test(l))!
      expect(marks).toContain(`at ${cuts[0]!.divergence!.truncatedTo}`)
    }
  })
})

describe('tsdump replicas on replicas-clean: no false alarm', async () => {
  const exp = expected(CLEAN)
  const { code, out, stderr } = await replicasJson(CLEAN, ['broker-1', 'broker-2', 'broker-3'])
  it('exits 0 and no copy diverges', () => {
    expect(stderr).toBe('')
    expect(code).toBe(0)
    expect(out.partitions.length).toBe(exp.replicaPartitions.length)
    for (const p of out.partitions) {
      expect(p.compared).toBe(true)
      for (const r of p.replicas) expect(r.divergenceOffset, `${p.topic}-${p.partition} ${r.broker}`).toBeNull()
      expect(
        p.findings.filter((f) => f.severity !== 'info'),
        `${p.topic}-${p.partition}`,
      ).toEqual([])
    }
  })
  it('the raw batches agree too, except below the cleaned point of the compacted topic, which is said', () => {
    for (const p of exp.replicaPartitions) {
      const got = out.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)!
      const leader = got.replicas.find((r) => r.isLeader)!
      const cleaned = p.copies.some(
        (c) => (c as unknown as { cleanerOffsetCheckpoint: number | null }).cleanerOffsetCheckpoint !== null,
      )
      const lb = rawBatches(path.join(CLEAN, leader.logDir, `${p.topic}-${p.partition}`))
      for (const r of got.replicas.filter((x) => !x.isLeader)) {
        const d = independentDivergence(rawBatches(path.join(CLEAN, r.logDir, `${p.topic}-${p.partition}`)), lb)
        if (!cleaned) expect(d.offset, `${p.topic}-${p.partition} ${r.logDir}`).toBeNull()
      }
      expect(
        got.findings.some((f) => f.code === 'REPLICA_COMPACTED'),
        `${p.topic}-${p.partition}`,
      ).toBe(cleaned)
    }
  })
})

describe('tsdump replicas: bad input', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-replicas-'))
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

  it.each([
    [['broker-1'], 'two or more broker log directories'],
    [['broker-1', 'broker-2/clean-0'], 'broker-2/clean-0: it holds .log files itself'],
    [['broker-1', 'expected.json'], 'expected.json: a file, not a broker log directory'],
    [['broker-1', 'no-such-dir'], 'no-such-dir: no such file or directory'],
    [['broker-1', 'dump'], 'dump: not a broker log directory: no meta.properties'],
  ])('%j exits 2 with one clear line', async (args, message) => {
    const r = await runCli(['replicas', ...args], { cwd: CLEAN })
    expect(r.code).toBe(2)
    expect(r.stdout).toBe('')
    expect(r.stderr).toContain(message)
    expect(r.stderr.trim().split('\n').length).toBe(1)
  })

  it("a damaged leader-epoch-checkpoint is a finding; the batches' own epochs give the same divergence", async () => {
    for (const d of UNCLEAN_DIRS) fs.cpSync(path.join(UNCLEAN, d), path.join(tmp, d), { recursive: true })
    const file = path.join(tmp, 'before/broker-1/unclean-2/leader-epoch-checkpoint')
    fs.writeFileSync(file, '0\n3\n0 0\n1 7\n')
    const { code, out } = await replicasJson(tmp, UNCLEAN_DIRS)
    expect(code).toBe(1)
    const p = out.partitions.find((x) => x.topic === 'unclean' && x.partition === 2)!
    const f = p.findings.find((x) => x.code === 'EPOCH_CHECKPOINT_DAMAGED')!
    expect({ file: f.file, position: f.position }).toEqual({
      file: path.join('before/broker-1/unclean-2/leader-epoch-checkpoint'),
      position: 12,
    })
    const r = p.replicas.find((x) => x.logDir === 'before/broker-1')!
    expect(r.epochCacheFrom).toBe('batches')
    const truth = expected(UNCLEAN)
      .replicaPartitions.find((x) => x.topic === 'unclean' && x.partition === 2)!
      .copies.find((c) => c.dir === 'before/broker-1')!
    expect(r.divergenceOffset).toBe(truth.divergence!.truncatedTo)
  })

  it('a partition on one broker only is listed, not compared', async () => {
    fs.mkdirSync(path.join(tmp, 'solo'), { recursive: true })
    fs.cpSync(path.join(CLEAN, 'broker-1', 'meta.properties'), path.join(tmp, 'solo', 'meta.properties'))
    fs.cpSync(path.join(CLEAN, 'broker-1', 'clean-2'), path.join(tmp, 'solo', 'lonely-0'), { recursive: true })
    fs.cpSync(path.join(CLEAN, 'broker-2'), path.join(tmp, 'other'), { recursive: true })
    const { code, out } = await replicasJson(tmp, ['solo', 'other'])
    expect(code).toBe(0)
    const lonely = out.partitions.find((x) => x.topic === 'lonely')!
    expect(lonely.compared).toBe(false)
    expect(lonely.findings.map((f) => f.code)).toEqual(['REPLICA_SINGLE_COPY'])
  })
})
