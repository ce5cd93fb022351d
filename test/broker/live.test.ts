// Live broker test: a random transactional workload against a real Kafka 3.9 broker, then tsdump is checked
// against kafka-dump-log (byte-identical --compat output) and against what the broker and kafkajs consumers
// reported (reconcile --json).
//
// Seed: drawn at run time and printed; set TSDUMP_BROKER_SEED=<n> to replay a run.
// TSDUMP_KEEP_BROKER_DIR=1 keeps the broker's temp dir for inspection.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
// plain ESM helpers shared with the fixture generator (scripts/fixtures/lib.mjs)
// @ts-ignore -- untyped .mjs
import * as L from '../../scripts/fixtures/lib.mjs'

const execFileP = promisify(execFile)
const ROOT = path.resolve(__dirname, '..', '..')
const TSDUMP = path.join(ROOT, 'bin', 'tsdump.js')
const TOPIC = 'live'

const seed = process.env.TSDUMP_BROKER_SEED ? Number(process.env.TSDUMP_BROKER_SEED) : Math.floor(Math.random() * 2 ** 31)
console.log(`[broker test] seed ${seed} (replay with TSDUMP_BROKER_SEED=${seed})`)

type PartitionObs = {
  topic: string
  partition: number
  logStartOffset: number
  logEndOffset: number
  highWatermark: number
  lastStableOffset: number
  readCommittedRecords: number
  readUncommittedRecords: number
}

let broker: any
let obs: { partitions: PartitionObs[]; topic: { topic: string; partitions: number; readCommitted: number; readUncommitted: number } }
let model: { rc: number[]; ru: number[]; openTxn: boolean; description: string[] }
let numPartitions = 1

async function run(cmd: string, args: string[], cwd: string) {
  try {
    const { stdout, stderr } = await execFileP(cmd, args, { cwd, maxBuffer: 1 << 28 })
    return { stdout, stderr, code: 0 }
  } catch (e: any) {
    return { stdout: e.stdout ?? '', stderr: e.stderr ?? String(e), code: typeof e.code === 'number' ? e.code : 1 }
  }
}

/**
 * Random workload. Records per partition are tracked in write order so the expected read_committed /
 * read_uncommitted counts can be computed independently of the broker (a self-check of the harness).
 */
async function workload(kafka: any) {
  const r = L.rng(seed)
  numPartitions = r.int(1, 2)
  const segmentBytes = r.pick([1024, 4096, 1048576])
  const nTx = r.int(1, 3)
  const leaveOpen = r.bool(0.3)
  const desc = [`partitions=${numPartitions}`, `segment.bytes=${segmentBytes}`, `txProducers=${nTx}`, `leaveOpen=${leaveOpen}`]
  await L.createTopics(kafka, [{ topic: TOPIC, numPartitions, config: { 'segment.bytes': segmentBytes, 'index.interval.bytes': 512 } }])

  // per partition: list of {n, kind: 'plain'|'tx', txKey?}
  const writes: { n: number; tx?: string }[][] = Array.from({ length: numPartitions }, () => [])
  const outcome = new Map<string, 'commit' | 'abort' | 'open'>()

  const plain = kafka.producer({ allowAutoTopicCreation: false })
  const idem = kafka.producer({ idempotent: true, maxInFlightRequests: 1, allowAutoTopicCreation: false })
  await plain.connect()
  await idem.connect()
  const txps: any[] = []
  for (let i = 0; i < nTx; i++) {
    const p = kafka.producer({ transactionalId: `live-tx-${i}`, idempotent: true, maxInFlightRequests: 1, transactionTimeout: 600000 })
    await p.connect()
    txps.push(p)
  }
  const msgs = (tag: string, n: number, partition: number) =>
    Array.from({ length: n }, (_, i) => ({ key: r.bool(0.7) ? `k${r.int(0, 30)}` : null, value: `${tag}-${i}-${'x'.repeat(r.int(0, 60))}`, partition }))

  let txCounter = 0
  const rounds = r.int(3, 8)
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < nTx; i++) {
      const tx = await txps[i].transaction()
      const key = `t${txCounter++}`
      const sends = r.int(1, 3)
      for (let s = 0; s < sends; s++) {
        const p = r.int(0, numPartitions - 1)
        const n = r.int(1, 5)
        await tx.send({ topic: TOPIC, acks: -1, messages: msgs(key, n, p) })
        writes[p]!.push({ n, tx: key })
        // interleave non-transactional writes
        if (r.bool(0.4)) {
          const q = r.int(0, numPartitions - 1)
          const m = r.int(1, 4)
          await (r.bool() ? plain : idem).send({ topic: TOPIC, acks: -1, messages: msgs(`p${round}`, m, q) })
          writes[q]!.push({ n: m })
        }
      }
      if (leaveOpen && round === rounds - 1 && i === nTx - 1) {
        outcome.set(key, 'open')
        // the producer "dies": no commit/abort
      } else if (r.bool(0.6)) {
        await tx.commit()
        outcome.set(key, 'commit')
      } else {
        await tx.abort()
        outcome.set(key, 'abort')
      }
    }
  }
  for (const p of txps) await p.disconnect()
  await plain.disconnect()
  await idem.disconnect()

  const rc: number[] = []
  const ru: number[] = []
  for (let p = 0; p < numPartitions; p++) {
    let c = 0
    let u = 0
    let blocked = false
    for (const w of writes[p]!) {
      u += w.n
      if (w.tx && outcome.get(w.tx) === 'open') blocked = true // LSO stalls at the open txn's first offset
      if (blocked) continue
      if (!w.tx || outcome.get(w.tx) === 'commit') c += w.n
    }
    rc.push(c)
    ru.push(u)
  }
  desc.push(`transactions=${JSON.stringify(Object.fromEntries(outcome))}`)
  return { rc, ru, openTxn: leaveOpen, description: desc }
}

function partitionDir(p: number) {
  return path.join(broker.logDir, `${TOPIC}-${p}`)
}

function filesOf(p: number, exts: string[]) {
  return fs
    .readdirSync(partitionDir(p))
    .filter((f) => exts.includes(path.extname(f)))
    .sort()
    .map((f) => `${TOPIC}-${p}/${f}`)
}

beforeAll(async () => {
  broker = await L.startBroker({ name: 'live' })
  const kafka = L.makeKafka(broker.bootstrap, 'tsdump-broker-test')
  model = await workload(kafka)
  console.log(`[broker test] workload: ${model.description.join(' ')}`)
  obs = await L.observeTopic(kafka, broker.bootstrap, TOPIC, numPartitions)
  console.log(`[broker test] broker/consumers: ${JSON.stringify(obs)}`)
  await broker.stop()
})

afterAll(async () => {
  if (broker) {
    await broker.stop().catch(() => {})
    if (!process.env.TSDUMP_KEEP_BROKER_DIR) L.removeBrokerDir(broker)
    else console.log(`[broker test] broker dir kept: ${broker.dir}`)
  }
})

describe(`live broker (seed ${seed})`, () => {
  it('broker and kafkajs consumers agree with the workload model', () => {
    for (let p = 0; p < numPartitions; p++) {
      const o = obs.partitions[p]!
      expect(o.lastStableOffset).toBeLessThanOrEqual(o.highWatermark)
      expect(o.readUncommittedRecords, `read_uncommitted records of ${TOPIC}-${p}`).toBe(model.ru[p])
      expect(o.readCommittedRecords, `read_committed records of ${TOPIC}-${p}`).toBe(model.rc[p])
      if (!model.openTxn) expect(o.lastStableOffset).toBe(o.highWatermark)
    }
  })

  const modes: [string, string[]][] = [
    ['shallow', []],
    ['deep', ['--deep-iteration']],
    ['data', ['--print-data-log']],
  ]

  /** split a dump into its per-file sections (each starts with a "Dumping <path>" line) */
  function sections(text: string): Map<string, string> {
    const out = new Map<string, string>()
    const parts = text.split(/^(?=Dumping )/m)
    for (const part of parts) {
      const m = /^Dumping (.*)$/m.exec(part)
      out.set(m ? m[1]! : '<preamble>', part)
    }
    return out
  }

  /**
   * One kafka-dump-log JVM per mode for all files (--files a,b,c prints each file's section in order), and
   * one tsdump run with the same files as separate arguments; the whole stdout must be identical. On a
   * mismatch, the per-file sections are compared too so the failure names the file.
   */
  async function compareCompat(files: string[], flags: string[]) {
    const kafka = await run('bash', [path.join(ROOT, 'scripts/kafka/dump-log.sh'), ...flags, '--files', files.join(',')], broker.logDir)
    expect(kafka.code, `kafka-dump-log ${flags.join(' ')}: ${kafka.stderr}`).toBe(0)
    const ts = await run('node', [TSDUMP, '--compat', ...flags, ...files], broker.logDir)
    if (ts.stdout !== kafka.stdout) {
      const want = sections(kafka.stdout)
      const got = sections(ts.stdout)
      for (const [file, text] of want) {
        expect.soft(got.get(file), `tsdump --compat ${flags.join(' ')} ${file} (exit ${ts.code}, stderr: ${ts.stderr.slice(0, 300)})`).toBe(text)
      }
    }
    expect(ts.stdout, `tsdump --compat ${flags.join(' ')} <${files.length} files>`).toBe(kafka.stdout)
  }

  for (const [, flags] of modes) {
    it(`tsdump --compat ${flags.join(' ') || '(shallow)'} prints exactly what kafka-dump-log prints for the .log files`, async () => {
      const files = Array.from({ length: numPartitions }, (_, p) => filesOf(p, ['.log'])).flat()
      expect(files.length).toBeGreaterThan(0)
      await compareCompat(files, flags)
    })
  }

  it('tsdump --compat matches kafka-dump-log for the index, txnindex and snapshot files', async () => {
    const files = Array.from({ length: numPartitions }, (_, p) => filesOf(p, ['.index', '.timeindex', '.txnindex', '.snapshot'])).flat()
    expect(files.length).toBeGreaterThan(0)
    await compareCompat(files, [])
  })

  it('tsdump reconcile --json agrees with the broker (HW, LSO) and the consumers (record counts)', async () => {
    const dirs = Array.from({ length: numPartitions }, (_, p) => partitionDir(p))
    const res = await run('node', [TSDUMP, 'reconcile', '--json', ...dirs], broker.logDir)
    expect(res.code, `tsdump reconcile exit code; stderr: ${res.stderr.slice(0, 1000)}`).toBe(0)
    const out = JSON.parse(res.stdout)
    for (const o of obs.partitions) {
      const got = out.partitions.find((x: any) => x.topic === o.topic && Number(x.partition) === o.partition)
      expect(got, `reconcile output for ${o.topic}-${o.partition}`).toBeDefined()
      expect.soft(Number(got.highWatermark), `highWatermark ${o.topic}-${o.partition}`).toBe(o.highWatermark)
      expect.soft(Number(got.lastStableOffset), `lastStableOffset ${o.topic}-${o.partition}`).toBe(o.lastStableOffset)
      expect.soft(Number(got.readCommitted), `readCommitted ${o.topic}-${o.partition}`).toBe(o.readCommittedRecords)
      expect.soft(Number(got.readUncommitted), `readUncommitted ${o.topic}-${o.partition}`).toBe(o.readUncommittedRecords)
    }
    const t = out.topics.find((x: any) => x.topic === TOPIC)
    expect(t, 'reconcile topic summary').toBeDefined()
    expect.soft(Number(t.readCommitted), 'topic readCommitted').toBe(obs.topic.readCommitted)
    expect.soft(Number(t.readUncommitted), 'topic readUncommitted').toBe(obs.topic.readUncommitted)
  })
})
