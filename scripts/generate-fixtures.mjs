#!/usr/bin/env node
// Regenerate the broker-written fixtures under fixtures/broker/<scenario>/.
//
//   node scripts/generate-fixtures.mjs [scenario ...] [--seed N] [--keep-broker-dir]
//   npm run fixtures
//
// Needs java + the Kafka jars (bash scripts/kafka/install.sh). Each scenario gets a fresh single-node
// KRaft broker (scripts/kafka/start.sh) on 127.0.0.1, runs its kafkajs workload, records what the broker,
// Kafka's Java console consumer (the reference counts) and kafkajs consumers (kept for comparison) report
// (expected.json), stops the broker cleanly, copies the partition dirs (logs/) and runs kafka-dump-log on
// every copied file (dump/, manifest.json).
import fs from 'node:fs';
import path from 'node:path';
import * as L from './fixtures/lib.mjs';

const SCENARIOS = {
  orders: { module: './fixtures/orders.mjs', seed: 1010 },
  'open-txn': { module: './fixtures/open-txn.mjs', seed: 2020 },
  interleaved: { module: './fixtures/interleaved.mjs', seed: 3030 },
  codecs: { module: './fixtures/codecs.mjs', seed: 4040 },
  compacted: { module: './fixtures/compacted.mjs', seed: 5050 },
  kraft: { module: './fixtures/kraft.mjs', seed: 6060 },
  'kraft-voters': { module: './fixtures/kraft-voters.mjs', seed: 7070 },
};

const argv = process.argv.slice(2);
let seedOverride;
let keepBrokerDir = false;
const wanted = [];
for (let i = 0; i < argv.length; i++) {
  if (argv[i] === '--seed') seedOverride = Number(argv[++i]);
  else if (argv[i] === '--keep-broker-dir') keepBrokerDir = true;
  else if (argv[i] === '--help' || argv[i] === '-h') {
    console.log(`usage: generate-fixtures.mjs [${Object.keys(SCENARIOS).join('|')} ...] [--seed N] [--keep-broker-dir]`);
    process.exit(0);
  } else wanted.push(argv[i]);
}
const names = wanted.length ? wanted : Object.keys(SCENARIOS);
for (const n of names) if (!SCENARIOS[n]) throw new Error(`unknown scenario ${n}`);

let current;
for (const sig of ['SIGINT', 'SIGTERM']) {
  process.on(sig, () => {
    current?.killSync();
    process.exit(130);
  });
}
process.on('exit', () => current?.killSync());

async function runScenario(name) {
  const spec = SCENARIOS[name];
  const mod = await import(spec.module);
  const seed = seedOverride ?? spec.seed;
  const fixtureDir = path.join(L.FIXTURES, name);
  L.log(`=== scenario ${name} (seed ${seed})`);
  const t0 = Date.now();
  L.registerCodecs();
  const broker = await L.startBroker({ props: mod.brokerProps ?? {}, name, startArgs: mod.startArgs ?? [] });
  current = broker;
  let result;
  try {
    const kafka = L.makeKafka(broker.bootstrap, `tsdump-fixtures-${name}`);
    result = await mod.run({ seed, fixtureDir, broker, kafka });
    if (mod.beforeStop) await mod.beforeStop({ broker, kafka, result });
  } catch (e) {
    await broker.stop().catch(() => {});
    throw e;
  }
  await broker.stop();
  current = undefined;
  const copied = mod.copyLogs
    ? mod.copyLogs({ broker, fixtureDir, result }) // scenario-specific layout (kraft: the metadata log dir)
    : L.copyLogs(broker.logDir, fixtureDir, result.copy);
  if (mod.afterCopy) await mod.afterCopy({ fixtureDir, logsDir: copied, result });
  const dumps = await L.dumpAll(fixtureDir);
  const mismatch = L.kafkajsMismatchNotes(result.partitions);
  const expected = {
    kafkaVersion: L.KAFKA_VERSION,
    scenario: name,
    seed,
    description: mod.description,
    ...(result.partitions.length === 0 ? {} : { countedWith: {
      javaConsumer:
        'kafka-console-consumer.sh ' +
        L.javaConsumerArgs('<bootstrap>', '<topic>', '<partition>', '<read_committed|read_uncommitted>').join(' ') +
        ' (org.apache.kafka.tools.consumer.ConsoleConsumer ' + L.KAFKA_VERSION + ', one line per record): readCommittedRecords, readUncommittedRecords',
      kafkajs: 'kafkajs 2.2.4 consumer, fresh group, fromBeginning, readUncommitted false/true, stopped after 1.5 s idle: kafkajs.* (reference only)',
    } }),
    ...(mismatch.length
      ? { kafkajsNote: 'kafkajs disagrees with the Java consumer (read_committed filter bug with interleaved aborted transactions, see fixtures/README.md): ' + mismatch.join('; ') }
      : {}),
    partitions: result.partitions,
    topics: result.topics,
    ...(result.producers ? { producers: result.producers } : {}),
    ...(result.transactions ? { transactions: result.transactions } : {}),
    ...(result.extra ? { extra: result.extra } : {}),
    notes: result.notes ?? [],
  };
  L.writeJson(path.join(fixtureDir, 'expected.json'), expected);
  L.writeJson(path.join(fixtureDir, 'manifest.json'), {
    kafkaVersion: L.KAFKA_VERSION,
    scenario: name,
    generatedBy: 'node scripts/generate-fixtures.mjs ' + name,
    brokerProps: mod.brokerProps ?? {},
    ...(mod.startArgs?.length ? { startArgs: mod.startArgs } : {}),
    copied: result.copy,
    dumps,
  });
  if (!keepBrokerDir) L.removeBrokerDir(broker);
  const size = L.dirSize(fixtureDir);
  L.log(`=== scenario ${name} done in ${((Date.now() - t0) / 1000).toFixed(1)} s, ${(size / 1024).toFixed(0)} KiB, ${dumps.length} dumps`);
  return size;
}

let total = 0;
for (const n of names) total += await runScenario(n);
if (fs.existsSync(L.FIXTURES)) {
  const all = L.dirSize(path.join(L.ROOT, 'fixtures'));
  L.log(`fixtures/ total ${(all / 1024 / 1024).toFixed(2)} MiB`);
  if (all > 3 * 1024 * 1024) console.warn('WARNING: fixtures/ is larger than 3 MiB');
}
process.exit(0);
