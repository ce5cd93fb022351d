// The Flink fixtures' driver (scenarios flink-incrementing and flink-pooling of scripts/generate-fixtures.mjs
// --kafka-version 4.4.0): runs the real Flink 2.2 job (scripts/flink/src, built by scripts/flink/build.sh) against the
// scenario's 4.4.0 broker and records after every step what the broker says (the 4.4.0 Admin client through
// scripts/java's `Gen observe`: listTransactions, describeTransactions, describeProducers), ListOffsets in both
// isolation levels and the records each isolation level reads (ReadTopic), the job's own log lines about
// transactions and its commit calls.
import { execFile } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { promisify } from 'node:util'
import * as L from '../fixtures/lib.mjs'
import { gen } from '../fixtures/v44/common.mjs'

const execFileP = promisify(execFile)

let classes
function flinkClasspath() {
  classes ??= L.execFileSync('bash', [path.join(L.ROOT, 'scripts', 'flink', 'build.sh')], { maxBuffer: 1 << 24 })
    .toString()
    .trim()
    .split('\n')
    .pop()
  return `${classes}:${path.join(path.dirname(classes), 'lib', '*')}`
}

const JVM = ['-Xmx512m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1']
const LOGGING = [
  '-Dorg.slf4j.simpleLogger.defaultLogLevel=warn',
  '-Dorg.slf4j.simpleLogger.log.org.apache.flink.connector.kafka=debug',
  '-Dorg.slf4j.simpleLogger.log.org.apache.kafka.clients.producer.internals.TransactionManager=info',
  '-Dorg.slf4j.simpleLogger.showDateTime=true',
  "-Dorg.slf4j.simpleLogger.dateTimeFormat=yyyy-MM-dd'T'HH:mm:ss.SSSZ",
]

/** A class of the Flink classpath; returns its JSON stdout lines and its stderr. */
async function flinkJava(cls, args, { ok = [0], logging = LOGGING } = {}) {
  const res = await execFileP('java', [...JVM, ...logging, '-cp', flinkClasspath(), cls, ...args], {
    maxBuffer: 1 << 28,
  }).catch((e) => {
    if (e.code === undefined || !ok.includes(e.code)) throw e
    return { stdout: e.stdout, stderr: e.stderr, code: e.code }
  })
  const events = res.stdout
    .split('\n')
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l))
  return { events, stderr: res.stderr, code: res.code ?? 0 }
}

export async function createTopic(bootstrap, topic, partitions) {
  await flinkJava('tsdump.flink.CreateTopic', [bootstrap, topic, String(partitions)], {
    logging: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
  })
}

// The job's log lines about transactions: the connector's (writer, committer, abort strategies, producer pool) and
// the producer's TransactionManager; stack traces and the connection chatter are left out.
const TXN_LINE =
  /(KafkaCommitter|ExactlyOnceKafkaWriter|TransactionAbortStrategyImpl|ProducerPoolImpl|TransactionManager)\b.*(transaction|fenced|ProducerId set|data loss|fatal)/i
const CHATTER =
  /Discovered transaction coordinator|Invoking InitProducerId for the first time|Closing the Kafka producer|getProducer|Recycling|Snapshotting state|Initialized ongoing|Closing used producers|new pool size|Committing Kafka transaction|Transaction \S+ finished|Prepare KafkaCommittable/
export function transactionLines(stderr) {
  return stderr
    .split('\n')
    .filter((l) => TXN_LINE.test(l) && !CHATTER.test(l))
    .map((l) => l.replace(/^(\S+) \[[^\]]*\] /, '$1 ').slice(0, 400))
}

/**
 * Runs the job once: {events, log, code}. haltOnCall > 0 halts it inside the committer (exit code 3);
 * drop = [subtask, call] skips one commit (HaltingKafkaSink).
 */
export async function runJob(bootstrap, o) {
  const args = [
    bootstrap,
    o.topic,
    o.naming,
    o.prefix,
    String(o.parallelism),
    o.checkpointDir,
    o.restore ?? '-',
    String(o.haltOnCall ?? 0),
    String(o.total),
    String(o.perCheckpoint),
    String(o.txnTimeoutMs),
    ...(o.drop ? o.drop.map(String) : []),
  ]
  const t0 = Date.now()
  const r = await flinkJava('tsdump.flink.FlinkJob', args, { ok: [0, 3] })
  L.log(
    `flink job ${o.prefix} parallelism ${o.parallelism}${o.restore ? ' (restored)' : ''}: exit ${r.code} in ${Date.now() - t0} ms, ${r.events.length} events`,
  )
  return {
    command: `FlinkJob ${args.join(' ').replaceAll(bootstrap, '<bootstrap>').replaceAll(o.checkpointDir, '<checkpoints>')}`,
    exitCode: r.code,
    events: r.events,
    log: transactionLines(r.stderr),
  }
}

/** The newest retained checkpoint (chk-N with its _metadata) of a checkpoint dir; back = 1, 2: the one before, ... */
export function latestCheckpoint(dir, back = 0) {
  const found = []
  for (const job of fs.readdirSync(dir)) {
    for (const c of fs.readdirSync(path.join(dir, job))) {
      const m = /^chk-(\d+)$/.exec(c)
      if (m && fs.existsSync(path.join(dir, job, c, '_metadata')))
        found.push({ id: Number(m[1]), path: path.join(dir, job, c) })
    }
  }
  found.sort((a, b) => a.id - b.id)
  if (found.length <= back)
    throw new Error(`${found.length} completed checkpoints in ${dir}, wanted the newest but ${back}`)
  return found.at(-1 - back)
}

/** The transactional ids of the job's log lines matching `re` (a restore's skipped and fenced ids). */
export function idsLogged(log, re) {
  return [
    ...new Set(
      log
        .filter((l) => re.test(l))
        .map((l) => /transactionalId='?([^,}'\s]+)|Skipping transaction (\S+)/.exec(l))
        .filter(Boolean)
        .map((m) => m[1] ?? m[2]),
    ),
  ].sort()
}

/** What the broker says now: the Admin answers and the records each isolation level reads. */
export async function observe(bootstrap, topic, partitions, step) {
  const [obs] = await gen('observe', bootstrap, '0', topic)
  const {
    events: [read],
  } = await flinkJava('tsdump.flink.ReadTopic', [bootstrap, topic, String(partitions)], {
    logging: ['-Dorg.slf4j.simpleLogger.defaultLogLevel=warn'],
  })
  delete obs.groups // no consumer group is involved
  delete obs.features.supported
  return {
    step,
    ...obs,
    listOffsets: read.offsets,
    readCommitted: read.readCommitted,
    readUncommitted: read.readUncommitted,
  }
}

/** Polls describeTransactions until every id of `ids` is in one of `states` (the coordinator's timeout abort). */
export async function waitForStates(bootstrap, ids, states, timeoutMs = 90_000) {
  const t0 = Date.now()
  for (;;) {
    const [obs] = await gen('observe', bootstrap, '0', '')
    const seen = Object.fromEntries(obs.describeTransactions.map((d) => [d.transactionalId, d.state]))
    if (ids.every((id) => states.includes(seen[id]))) return { waitedMs: Date.now() - t0, states: seen }
    if (Date.now() - t0 > timeoutMs)
      throw new Error(`transactions ${ids} not ${states} after ${timeoutMs} ms: ${JSON.stringify(seen)}`)
    await L.sleep(1000)
  }
}

/** The inputs 0..total-1 that no read_committed consumer saw (yet), with where read_uncommitted found them. */
export function lostInputs(final, total) {
  const committed = new Set(final.readCommitted.map((r) => r[2]))
  const where = new Map(final.readUncommitted.map((r) => [r[2], r]))
  const lost = []
  for (let i = 0; i < total; i++) {
    const v = `in-${String(i).padStart(6, '0')}`
    if (!committed.has(v))
      lost.push({ input: v, partition: where.get(v)?.[0] ?? null, offset: where.get(v)?.[1] ?? null })
  }
  const counts = new Map()
  for (const r of final.readCommitted) counts.set(r[2], (counts.get(r[2]) ?? 0) + 1)
  const duplicates = [...counts].filter(([, n]) => n > 1).map(([v]) => v)
  return { lost, duplicates }
}
