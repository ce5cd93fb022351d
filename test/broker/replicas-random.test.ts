// tsdump replicas against a live unclean election: the seeded random scenario of
// scripts/fixtures/v44/replicas-random.mjs on a fresh 3-broker KRaft cluster (2-4 min on 2 cores). Truth from
// the brokers: where each old replica truncated when it rejoined (its server.log), the batches past that point
// (kafka-dump-log of the copy) and the acknowledged records a consumer no longer read (lostRecords).
// Skipped, with the reason printed, when three brokers do not fit the machine (cluster.mjs clusterFits).
// Seed: drawn at run time and printed; TSDUMP_REPLICAS_SEED=<n> replays a run. The scenario is written for Kafka
// 4.4.0 (its Java driver and the fixtures' release): under another KAFKA_VERSION (.ci/run's 3.9.1 pass) it is
// skipped with the reason, so that it runs once per .ci/run.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// @ts-ignore -- untyped .mjs
import { clusterFits } from '../../scripts/fixtures/cluster.mjs'
// @ts-ignore -- untyped .mjs
import { runRandomUnclean } from '../../scripts/fixtures/v44/replicas-random.mjs'

const execFileP = promisify(execFile)
const TSDUMP = path.resolve(__dirname, '..', '..', 'bin', 'tsdump.js')
const seed = process.env.TSDUMP_REPLICAS_SEED
  ? Number(process.env.TSDUMP_REPLICAS_SEED)
  : Math.floor(Math.random() * 2 ** 31)
const RELEASE = '4.4.0'
const otherRelease = process.env.KAFKA_VERSION !== undefined && process.env.KAFKA_VERSION !== RELEASE
const fits = (
  otherRelease
    ? {
        ok: false,
        reason: `the scenario runs on Kafka ${RELEASE}, this pass is KAFKA_VERSION=${process.env.KAFKA_VERSION}`,
      }
    : clusterFits({ brokers: 3, kafkaVersion: RELEASE })
) as { ok: boolean; reason: string }
if (!fits.ok) console.log(`[replicas-random] skipped: ${fits.reason}`)
else console.log(`[replicas-random] seed ${seed} (replay with TSDUMP_REPLICAS_SEED=${seed}); ${fits.reason}`)

interface Batch {
  baseOffset: number
  lastOffset: number
  crc: number
  partitionLeaderEpoch: number
  records: Array<{ offset: number; key?: string | null; marker?: string }> | null
  isControl: boolean
  marker?: string | null
}
interface Copy {
  dir: string
  broker: number
  stage: string
  divergence: { truncatedTo: number | null } | null
  batchesPastDivergence: Batch[] | null
}
interface Truth {
  replicaPartitions: Array<{
    topic: string
    partition: number
    copies: Copy[]
    lostRecords: Array<{ offset: number; key: string }>
  }>
}
interface Run {
  seed: number
  description: string[]
  dest: string
  dirs: { before: Record<string, string>; final: Record<string, string> }
  newLeader: number
  truth: Truth
  seconds: number
}
interface Replica {
  broker: number
  logDir: string
  isLeader: boolean
  divergenceOffset: number | null
  batchesPastDivergence: Batch[]
}
interface Out {
  partitions: Array<{ topic: string; partition: number; leader: number; replicas: Replica[] }>
}

async function replicas(dirs: string[]): Promise<{ code: number; out: Out }> {
  try {
    const r = await execFileP(process.execPath, [TSDUMP, 'replicas', '--json', ...dirs], { maxBuffer: 1 << 26 })
    return { code: 0, out: JSON.parse(r.stdout) as Out }
  } catch (e) {
    const err = e as { code: number; stdout: string; stderr: string }
    if (typeof err.code !== 'number' || err.code === 2) throw new Error(`tsdump replicas failed: ${err.stderr}`)
    return { code: err.code, out: JSON.parse(err.stdout) as Out }
  }
}

describe.skipIf(!fits.ok)('tsdump replicas on a random unclean election (3 brokers)', () => {
  let run: Run
  beforeAll(async () => {
    run = (await runRandomUnclean({ seed, kafkaVersion: RELEASE })) as Run
    console.log(
      `[replicas-random] seed ${seed}: ${run.description.join('; ')} (${run.seconds.toFixed(0)} s, ${run.dest})`,
    )
  }, 600_000)
  afterAll(() => {
    if (run !== undefined && process.env.TSDUMP_KEEP_BROKER_DIR !== '1')
      fs.rmSync(run.dest, { recursive: true, force: true })
  })

  it('the old replicas, before they truncated, against the new leader: where and what, as the brokers say', async () => {
    const olds = Object.keys(run.dirs.before)
      .map(Number)
      .filter((b) => b !== run.newLeader)
    const dirs = [...olds.map((b) => run.dirs.before[b]!), run.dirs.final[run.newLeader]!]
    const { code, out } = await replicas(dirs)
    let diverging = 0
    for (const p of run.truth.replicaPartitions.filter((x) => !x.topic.startsWith('__'))) {
      const got = out.partitions.find((x) => x.topic === p.topic && x.partition === p.partition)!
      expect(got, `${p.topic}-${p.partition}`).toBeDefined()
      expect(got.leader).toBe(run.newLeader)
      const past: Array<{ offset: number; key: string | null }> = []
      for (const b of olds) {
        const c = p.copies.find((x) => x.stage === 'before' && x.broker === b)!
        const r = got.replicas.find((x) => path.resolve(x.logDir) === path.resolve(run.dirs.before[b]!))!
        const where = `${p.topic}-${p.partition} broker ${b}`
        expect(r.divergenceOffset, where).toBe(c.divergence?.truncatedTo ?? null)
        const shape = (x: Batch): unknown => ({
          base: x.baseOffset,
          last: x.lastOffset,
          crc: x.crc,
          epoch: x.partitionLeaderEpoch,
        })
        expect(r.batchesPastDivergence.map(shape), where).toEqual((c.batchesPastDivergence ?? []).map(shape))
        for (const x of r.batchesPastDivergence)
          past.push(...(x.records ?? []).map((y) => ({ offset: y.offset, key: y.key ?? null })))
        if (r.divergenceOffset !== null) diverging++
      }
      for (const l of p.lostRecords)
        expect(past, `${p.topic}-${p.partition}: lost ${l.key}@${l.offset}`).toContainEqual({
          offset: l.offset,
          key: l.key,
        })
    }
    // an acknowledged record lost means some old copy held it past its divergence point
    if (run.truth.replicaPartitions.some((p) => p.lostRecords.length > 0)) expect(diverging).toBeGreaterThan(0)
    expect(code).toBe(diverging > 0 ? 1 : 0)
  })

  it('the final copies agree', async () => {
    const { out } = await replicas(Object.values(run.dirs.final))
    for (const p of out.partitions)
      for (const r of p.replicas) expect(r.divergenceOffset, `${p.topic}-${p.partition} ${r.broker}`).toBeNull()
  })
})
