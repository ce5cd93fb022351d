#!/usr/bin/env node
// Regenerate the broker-written fixtures under fixtures/broker/<scenario>/ (Kafka 3.9.1, kafkajs workloads) or
// fixtures/broker-4.4/<scenario>/ (Kafka 4.4.0, Java client workloads: scripts/java, scripts/fixtures/v44).
//
//   node scripts/generate-fixtures.mjs [--kafka-version 3.9.1|4.4.0] [scenario ...] [--seed N] [--keep-broker-dir]
//        [--no-other-releases]
//   npm run fixtures            (3.9.1 and 4.4.0)
//
// After dump/ (the writing release's kafka-dump-log), every other installed release of dump-lib.mjs RELEASES
// dumps the same files into dump-<release>/ (--no-other-releases skips that).
//
// Needs java + the Kafka jars (bash scripts/kafka/install.sh). Each scenario gets a fresh single-node
// KRaft broker (scripts/kafka/start.sh) on 127.0.0.1, runs its kafkajs workload, records what the broker,
// Kafka's Java console consumer (the reference counts) and kafkajs consumers (kept for comparison) report
// (expected.json), stops the broker cleanly, copies the partition dirs (logs/) and runs kafka-dump-log on
// every copied file (dump/, manifest.json).
import fs from 'node:fs'
import path from 'node:path'

const argv = process.argv.slice(2)
const kv = argv.indexOf('--kafka-version')
if (kv >= 0) {
  process.env.KAFKA_VERSION = argv[kv + 1]
  argv.splice(kv, 2)
}
delete process.env.KAFKA_CACHE // env.sh derives it from KAFKA_VERSION
const L = await import('./fixtures/lib.mjs')
const D = await import('./fixtures/dump-lib.mjs')
const { dumpOtherReleases } = await import('./fixtures/dump-releases.mjs')

const SCENARIOS_39 = {
  orders: { module: './fixtures/orders.mjs', seed: 1010 },
  'open-txn': { module: './fixtures/open-txn.mjs', seed: 2020 },
  interleaved: { module: './fixtures/interleaved.mjs', seed: 3030 },
  codecs: { module: './fixtures/codecs.mjs', seed: 4040 },
  compacted: { module: './fixtures/compacted.mjs', seed: 5050 },
  kraft: { module: './fixtures/kraft.mjs', seed: 6060 },
  'kraft-voters': { module: './fixtures/kraft-voters.mjs', seed: 7070 },
  transactions: { module: './fixtures/transactions.mjs', seed: 8080, java: true }, // the 4.4.0 Java client, TV1
}
// Kafka 4.4.0: workloads of the 4.4.0 Java client (no kafkajs)
const SCENARIOS_44 = {
  txn: { module: './fixtures/v44/txn.mjs', seed: 4401, java: true },
  groups: { module: './fixtures/v44/groups.mjs', seed: 4402, java: true },
  codecs: { module: './fixtures/v44/codecs.mjs', seed: 4403, java: true },
  kraft: { module: './fixtures/v44/kraft.mjs', seed: 4404, java: true },
  'kraft-voters': { module: './fixtures/v44/kraft-voters.mjs', seed: 4405, java: true },
  cleanup: { module: './fixtures/v44/cleanup.mjs', seed: 4406, java: true },
  transactions: { module: './fixtures/v44/transactions.mjs', seed: 4406, java: true },
  'log-start': { module: './fixtures/v44/log-start.mjs', seed: 4408, java: true },
  // a real Flink 2.2 job (scripts/flink) halted in its committer and restored with a smaller parallelism
  'flink-incrementing': { module: './flink/incrementing.mjs', seed: 4410, java: true },
  'flink-pooling': { module: './flink/pooling.mjs', seed: 4411, java: true },
  'streams-eos': { module: './fixtures/v44/streams-eos.mjs', seed: 4431, java: true },
  // 3 brokers + a controller, several log dirs per fixture: written by scripts/fixtures/v44/replicas-fixture.mjs
  'replicas-clean': { module: './fixtures/v44/replicas-clean.mjs', seed: 4406, java: true, cluster: true },
  'replicas-unclean': { module: './fixtures/v44/replicas-unclean.mjs', seed: 4407, java: true, cluster: true },
}
const TREES = {
  '3.9.1': { scenarios: SCENARIOS_39, dir: 'broker' },
  '4.4.0': { scenarios: SCENARIOS_44, dir: 'broker-4.4' },
}
const tree = TREES[L.KAFKA_VERSION]
if (!tree) throw new Error(`no fixture tree for Kafka ${L.KAFKA_VERSION} (have ${Object.keys(TREES).join(', ')})`)
const SCENARIOS = tree.scenarios
const FIXTURES = path.join(L.ROOT, 'fixtures', tree.dir)

let seedOverride
let keepBrokerDir = false
let otherReleases = true
const wanted = []
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--seed') seedOverride = Number(argv[++i])
  else if (argv[i] === '--keep-broker-dir') keepBrokerDir = true
  else if (argv[i] === '--no-other-releases') otherReleases = false
  else if (argv[i] === '--help' || argv[i] === '-h') {
    console.log(
      `usage: generate-fixtures.mjs [--kafka-version ${Object.keys(TREES).join('|')}] [${Object.keys(SCENARIOS).join('|')} ...] [--seed N] [--keep-broker-dir] [--no-other-releases]`,
    )
    process.exit(0)
  } else wanted.push(argv[i])
}
const names = wanted.length ? wanted : Object.keys(SCENARIOS)
for (const n of names) if (!SCENARIOS[n]) throw new Error(`unknown scenario ${n}`)

let current
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    current?.killSync()
    process.exit(130)
  })
}
process.on('exit', () => current?.killSync())

async function runScenario(name) {
  const spec = SCENARIOS[name]
  const mod = await import(spec.module)
  const seed = seedOverride ?? spec.seed
  const fixtureDir = path.join(FIXTURES, name)
  L.log(`=== scenario ${name} (Kafka ${L.KAFKA_VERSION}, seed ${seed})`)
  if (spec.cluster) {
    const { generate } = await import('./fixtures/v44/replicas-fixture.mjs')
    return generate({ name, mod, seed, fixtureDir, keepClusterDir: keepBrokerDir })
  }
  const t0 = Date.now()
  // a scenario with its own flow (cleanup: several broker runs on one log dir, two copies of it)
  if (mod.generate)
    return mod.generate({
      seed,
      fixtureDir,
      name,
      keepBrokerDir,
      otherReleases,
      setCurrent: (b) => {
        current = b
      },
    })
  if (!spec.java) L.registerCodecs()
  const broker = await L.startBroker({ props: mod.brokerProps ?? {}, name, startArgs: mod.startArgs ?? [] })
  current = broker
  let result
  try {
    const kafka = spec.java ? undefined : L.makeKafka(broker.bootstrap, `tsdump-fixtures-${name}`)
    result = await mod.run({ seed, fixtureDir, broker, kafka })
    if (mod.beforeStop) await mod.beforeStop({ broker, kafka, result })
  } catch (e) {
    await broker.stop().catch(() => {})
    throw e
  }
  await broker.stop()
  current = undefined
  const copied = mod.copyLogs
    ? mod.copyLogs({ broker, fixtureDir, result }) // scenario-specific layout (kraft: the metadata log dir)
    : L.copyLogs(broker.logDir, fixtureDir, result.copy)
  if (mod.afterCopy) await mod.afterCopy({ fixtureDir, logsDir: copied, result })
  const dumps = await D.dumpRelease(fixtureDir, L.KAFKA_VERSION, 'dump')
  const checkedModes = await D.checkRunner(fixtureDir, L.KAFKA_VERSION, dumps)
  const mismatch = L.kafkajsMismatchNotes(result.partitions)
  const expected = {
    kafkaVersion: L.KAFKA_VERSION,
    scenario: name,
    seed,
    description: mod.description,
    ...(result.partitions.length === 0
      ? {}
      : spec.java
        ? {
            countedWith: {
              javaConsumer:
                'kafka-console-consumer.sh ' +
                L.javaConsumerArgs('<bootstrap>', '<topic>', '<partition>', '<read_committed|read_uncommitted>').join(
                  ' ',
                ) +
                ' (org.apache.kafka.tools.consumer.ConsoleConsumer ' +
                L.KAFKA_VERSION +
                ', one line per record): readCommittedRecords, readUncommittedRecords',
              writtenBy:
                result.writtenBy ??
                'Kafka ' + L.KAFKA_VERSION + ' Java client (kafka-clients, scripts/java/src/tsdump/gen)',
            },
          }
        : {
            countedWith: {
              javaConsumer:
                'kafka-console-consumer.sh ' +
                L.javaConsumerArgs('<bootstrap>', '<topic>', '<partition>', '<read_committed|read_uncommitted>').join(
                  ' ',
                ) +
                ' (org.apache.kafka.tools.consumer.ConsoleConsumer ' +
                L.KAFKA_VERSION +
                ', one line per record): readCommittedRecords, readUncommittedRecords',
              kafkajs:
                'kafkajs 2.2.4 consumer, fresh group, fromBeginning, readUncommitted false/true, stopped after 1.5 s idle: kafkajs.* (reference only)',
            },
          }),
    ...(mismatch.length
      ? {
          kafkajsNote:
            'kafkajs disagrees with the Java consumer (read_committed filter bug with interleaved aborted transactions, see fixtures/README.md): ' +
            mismatch.join('; '),
        }
      : {}),
    partitions: result.partitions,
    topics: result.topics,
    ...(result.producers ? { producers: result.producers } : {}),
    ...(result.transactions ? { transactions: result.transactions } : {}),
    ...(result.extra ? { extra: result.extra } : {}),
    ...(result.more ?? {}), // scenario-specific top-level keys (transactions: transactionLog, describeTransactions, ...)
    notes: result.notes ?? [],
  }
  L.writeJson(path.join(fixtureDir, 'expected.json'), expected)
  L.writeJson(path.join(fixtureDir, 'manifest.json'), {
    kafkaVersion: L.KAFKA_VERSION,
    scenario: name,
    generatedBy: `node scripts/generate-fixtures.mjs --kafka-version ${L.KAFKA_VERSION} ${name}`,
    dumpRunner: `tsdump.DumpRunner (scripts/java/src): every dump in one JVM with cwd logs/; checked byte for byte against separate kafka-dump-log.sh runs for modes ${checkedModes.join(', ')}`,
    brokerProps: mod.brokerProps ?? {},
    ...(mod.startArgs?.length ? { startArgs: mod.startArgs } : {}),
    copied: result.copy,
    dumps,
  })
  if (!keepBrokerDir) L.removeBrokerDir(broker)
  if (otherReleases) await dumpOtherReleases(fixtureDir, D.RELEASES)
  const size = L.dirSize(fixtureDir)
  L.log(
    `=== scenario ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${(size / 1024).toFixed(0)} KiB, ${dumps.length} dumps`,
  )
  return size
}

let total = 0
for (const n of names) total += await runScenario(n)
if (fs.existsSync(FIXTURES)) {
  const all = L.dirSize(path.join(L.ROOT, 'fixtures'))
  L.log(`fixtures/ total ${(all / 1024 / 1024).toFixed(2)} MiB`)
  // 9.8 MiB with the transactions, cleanup, replica and tiered scenarios (most of it kafka-dump-log's stored text of
  // six releases); a clone stays quick below this
  if (all > 12 * 1024 * 1024) console.warn('WARNING: fixtures/ is larger than 12 MiB')
}
process.exit(0)
