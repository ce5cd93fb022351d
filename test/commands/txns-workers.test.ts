// txns with the timelines scanned by worker threads (commands/workers/txns-pool.ts) writes exactly what one thread
// writes, text and JSON, stderr and exit code included: on every broker log directory of fixtures/broker, the
// shared corpus's partitions together, and damaged copies (bad CRC, cut length, truncated tail). With 2 and 3
// threads (one and two workers), and partitions of different sizes, so that a later partition is ready before
// the one being written: the output is correct only if the main thread writes strictly in partition order.
// The workers run the compiled dist/, which vitest's globalSetup (test/support/build-dist.ts) rebuilds first
// when a src/ file is newer.
import * as fs from 'node:fs'
import * as path from 'node:path'
import * as fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import type { TimelineRun } from '../../src/analysis/timeline.js'
import { runTxns } from '../../src/commands/txns.js'
import { decodeRun, encodeRuns } from '../../src/commands/workers/txns-wire.js'
import { CORPUS, corpusAvailable, FIXTURES, REPO_ROOT } from '../support/paths.js'
import { markerOf } from '../support/timeline-runs.js'
import { rmrf, testContext, tmp } from '../hostile/support.js'
import { staleSource } from '../support/build-dist.js'

interface Out {
  code: number
  out: string
  err: string
  workers: number
}

async function txns(paths: string[], threads: number, opts: Record<string, unknown> = {}): Promise<Out> {
  const ctx = testContext()
  let workers = 0
  const code = await runTxns(
    {
      paths,
      threads,
      wide: true,
      workerInternals: {
        minBytes: 0,
        onWorkers: (n) => {
          workers = n
        },
      },
      ...opts,
    },
    ctx,
  )
  return { code, out: ctx.stdout.text, err: ctx.stderr.text, workers }
}

const partitionDirs = (d: string): string[] =>
  fs
    .readdirSync(d)
    .filter((n) => fs.statSync(path.join(d, n)).isDirectory())
    .map((n) => path.join(d, n))

async function expectSame(paths: string[], opts: Record<string, unknown> = {}): Promise<void> {
  const one = await txns(paths, 1, opts)
  expect(one.workers).toBe(0)
  const timelines = paths
    .flatMap((p) =>
      fs.existsSync(path.join(p, '..', 'replication-offset-checkpoint')) ||
      !fs.readdirSync(p).some((n) => n.endsWith('.log'))
        ? partitionDirs(p)
        : [p],
    )
    .filter((p) => !path.basename(p).startsWith('__transaction_state')).length
  for (const threads of [2, 3]) {
    const many = await txns(paths, threads, opts)
    expect(many.out).toBe(one.out)
    expect(many.err).toBe(one.err)
    expect(many.code).toBe(one.code)
    expect(many.workers, 'workers ran when there are timelines to share').toBe(
      timelines >= 2 ? Math.min(threads - 1, timelines) : 0,
    )
  }
}

const logDirs = fs
  .readdirSync(FIXTURES)
  .map((s) => path.join(FIXTURES, s, 'logs'))
  .filter((d) => fs.existsSync(d))

describe('txns in workers = one thread, byte for byte', () => {
  it('runs the current source: no src/ file is newer than dist/ (test/support/build-dist.ts rebuilds it)', () => {
    expect(staleSource()).toBeUndefined()
  })
  for (const dir of logDirs) {
    for (const format of ['text', 'json'] as const) {
      it(`${format} ${path.basename(path.dirname(dir))}`, async () => {
        await expectSame([dir], { format })
      })
    }
  }

  it("with a filter (--producer-id of one of orders' producers), text and json", async () => {
    const dir = path.join(FIXTURES, 'orders', 'logs')
    // the last transactional producer listed (orders-11's)
    const pids = [...(await txns([dir], 1, { color: false })).out.matchAll(/pid (\d+) epoch \d+\s+transactional/g)].map(
      (m) => m[1]!,
    )
    expect(pids.length, 'producer ids in the timeline').toBeGreaterThan(0)
    const first = [0, pids.at(-1)!]
    for (const format of ['text', 'json'] as const)
      await expectSame([dir], { format, filter: { producerIds: [BigInt(first![1]!)] } })
  })

  it.skipIf(!corpusAvailable())("the shared corpus's partitions in one run, text and json", async () => {
    const dirs = fs
      .readdirSync(CORPUS)
      .flatMap((s) => (fs.statSync(path.join(CORPUS, s)).isDirectory() ? partitionDirs(path.join(CORPUS, s)) : []))
      .filter((d) => /-\d+$/.test(d) && fs.readdirSync(d).some((n) => n.endsWith('.log')))
    expect(dirs.length).toBeGreaterThan(1)
    for (const format of ['text', 'json'] as const) await expectSame(dirs, { format })
  })

  describe('damaged copies', () => {
    const root = tmp('tsdump-txns-workers-')
    afterAll(() => {
      rmrf(root)
    })
    // orders' partitions and interleaved's, each damaged differently (or not), in one log directory
    const logs = path.join(root, 'logs')
    fs.mkdirSync(logs)
    const sources = [
      ...partitionDirs(path.join(FIXTURES, 'orders', 'logs')),
      ...partitionDirs(path.join(FIXTURES, 'interleaved', 'logs')),
    ]
    const damage: Array<(b: Buffer) => Buffer> = [
      (b) => b,
      (b) => {
        const c = Buffer.from(b)
        c[Math.floor(c.length / 2)]! ^= 0xff
        return c
      }, // bad CRC (or a bad header) mid-segment
      (b) => b.subarray(0, b.length - 7), // truncated tail
      (b) => {
        const c = Buffer.from(b)
        if (c.length > 12) c.writeInt32BE(0x7ffffff0, 8)
        return c
      }, // the first batch's length cut wild
    ]
    sources.forEach((src, i) => {
      const to = path.join(logs, path.basename(src))
      fs.mkdirSync(to)
      for (const f of fs.readdirSync(src)) {
        const bytes = fs.readFileSync(path.join(src, f))
        fs.writeFileSync(path.join(to, f), f.endsWith('.log') ? damage[i % damage.length]!(bytes) : bytes)
      }
    })
    for (const format of ['text', 'json'] as const) {
      it(`${format}`, async () => {
        const one = await txns([logs], 1, { format })
        expect(format === 'json' ? one.out : one.err, 'the damage is found').toMatch(
          /"severity":"(error|warning)"|tsdump: (error|warning)/,
        )
        await expectSame([logs], { format })
      })
    }
  })
})

// the runs as posted: every field back as it was
const i64 = fc.bigInt({ min: -(2n ** 63n), max: 2n ** 63n - 1n })
const int = fc.integer({ min: -(2 ** 31), max: 2 ** 31 - 1 })
const runArb: fc.Arbitrary<TimelineRun> = fc.oneof(
  fc.record({
    kind: fc.constant('plain' as const),
    firstOffset: i64,
    lastOffset: i64,
    producerId: i64,
    producerEpoch: int,
    records: fc.nat(),
    batches: fc.nat(),
  }),
  fc.record({
    kind: fc.constant('control' as const),
    firstOffset: i64,
    typeName: fc.constantFrom('LEADER_CHANGE', 'SNAPSHOT_HEADER', 'UNKNOWN(99)'),
    producerId: i64,
  }),
  fc.record(
    {
      kind: fc.constant('transaction' as const),
      firstOffset: i64,
      interleaved: fc.boolean(),
      txn: fc
        .record({
          seq: fc.nat(),
          producerId: i64,
          producerEpoch: int,
          markerEpoch: fc.option(int, { nil: null }),
          firstOffset: i64,
          lastDataOffset: fc.option(i64, { nil: null }),
          records: fc.nat(),
          batches: fc.nat(),
          firstTimestamp: fc.option(i64, { nil: null }),
          lastTimestamp: fc.option(i64, { nil: null }),
          type: fc.constantFrom('COMMIT' as const, 'ABORT' as const, null),
          markerOffset: i64,
          coordinatorEpoch: fc.option(int, { nil: null }),
          seeded: fc.boolean(),
          empty: fc.boolean(),
          completionLastStableOffset: fc.option(i64, { nil: null }),
        })
        .map(({ type, markerOffset, ...t }) => ({ ...t, ...markerOf(type, markerOffset, t) })),
      listed: fc.constantFrom('early' as const, 'end' as const),
    },
    { requiredKeys: ['kind', 'firstOffset', 'interleaved', 'txn'] },
  ),
)

describe('txns worker run encoding', () => {
  it('decodes every run as it was encoded', () => {
    fc.assert(
      fc.property(fc.array(runArb, { maxLength: 20 }), (runs) => {
        const w = encodeRuns(runs)
        expect(Array.from({ length: w.count }, (_, i) => decodeRun(w, i))).toEqual(runs)
      }),
      { numRuns: 300 },
    )
  })
})
