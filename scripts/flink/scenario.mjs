// The two Flink scenarios' common flow (scripts/flink/incrementing.mjs, scripts/flink/pooling.mjs): run the job
// until it halts in its committer, observe, (wait for the coordinator's timeout abort, observe,) restore it with a
// smaller parallelism from its newest retained checkpoint, run it to the end of its input, observe; then the
// Java console consumer's counts as in every 4.4.0 fixture.
import fs from 'node:fs'
import path from 'node:path'
import { BROKER_PROPS_44, dirsOf, observeTopicsJava } from '../fixtures/v44/common.mjs'
import { createTopic, idsLogged, lostInputs, latestCheckpoint, observe, runJob, waitForStates } from './lib.mjs'

export const FLINK = { flink: '2.2.0', connector: 'flink-connector-kafka 5.0.0-2.2', kafkaClients: '4.2.0' }
export const brokerProps = (extra = {}) => ({
  ...BROKER_PROPS_44,
  // the coordinator looks for expired transactions every 500 ms instead of every 10 s
  'transaction.abort.timed.out.transaction.cleanup.interval.ms': 500,
  ...extra,
})

/**
 * s: {topic, partitions, naming, prefix, parallelism, restoredParallelism, total, perCheckpoint, txnTimeoutMs,
 *     haltOnCall, drop?, waitForTimeout, restoreBack?, restoredTxnTimeoutMs?}
 * restoreBack n > 0 restores from the nth retained checkpoint before the newest (as from an older checkpoint or a
 * savepoint taken then) instead of the newest.
 */
export async function runScenario(broker, s) {
  const b = broker.bootstrap
  const checkpointDir = fs.mkdtempSync(path.join(broker.dir, 'flink-checkpoints-'))
  await createTopic(b, s.topic, s.partitions)
  const job = {
    topic: s.topic,
    naming: s.naming,
    prefix: s.prefix,
    checkpointDir,
    total: s.total,
    perCheckpoint: s.perCheckpoint,
    txnTimeoutMs: s.txnTimeoutMs,
  }
  const steps = []
  const first = await runJob(b, { ...job, parallelism: s.parallelism, haltOnCall: s.haltOnCall, drop: s.drop })
  if (first.exitCode !== 3)
    throw new Error(`the job was to halt in its committer (exit 3), it exited ${first.exitCode}`)
  const held = first.events
    .filter((e) => e.event === 'commit-held')
    .flatMap((e) => e.committables.map((c) => c.split('@')[0]))
  const dropped = first.events
    .filter((e) => e.event === 'commit-dropped')
    .flatMap((e) => e.committables.map((c) => c.split('@')[0]))
  steps.push({
    step: 'halted',
    description: `parallelism ${s.parallelism}, halted inside the committer holding ${held.join(', ')}`,
    job: first,
    broker: await observe(b, s.topic, s.partitions, 'halted'),
  })
  if (s.waitForTimeout) {
    const w = await waitForStates(b, held, ['CompleteAbort'])
    steps.push({
      step: 'timed-out',
      description: `waited ${w.waitedMs} ms until the coordinator had aborted ${held.join(', ')} (transaction.timeout.ms ${s.txnTimeoutMs})`,
      broker: await observe(b, s.topic, s.partitions, 'timed-out'),
    })
  }
  const latest = latestCheckpoint(checkpointDir)
  const checkpoint = latestCheckpoint(checkpointDir, s.restoreBack ?? 0)
  const restoredTxnTimeoutMs = s.restoredTxnTimeoutMs ?? s.txnTimeoutMs
  const second = await runJob(b, {
    ...job,
    parallelism: s.restoredParallelism,
    restore: checkpoint.path,
    txnTimeoutMs: restoredTxnTimeoutMs,
  })
  if (second.exitCode !== 0) throw new Error(`the restored job exited ${second.exitCode}`)
  const final = await observe(b, s.topic, s.partitions, 'restored')
  steps.push({
    step: 'restored',
    description: `restored from checkpoint ${checkpoint.id}${checkpoint.id === latest.id ? '' : ` (the newest was ${latest.id})`} with parallelism ${s.restoredParallelism}, ran to the end of its ${s.total} inputs`,
    job: second,
    broker: final,
  })
  const { lost, duplicates } = lostInputs(final, s.total)
  const obs = await observeTopicsJava(b, [[s.topic, s.partitions]])
  const flink = {
    ...FLINK,
    job: 'scripts/flink/src/tsdump/flink/FlinkJob.java: DataGeneratorSource of inputs "in-000000".. (perCheckpoint rate), KafkaSink EXACTLY_ONCE, input i to partition i % partitions, checkpoints every 1000 ms, retained',
    namingStrategy: s.naming,
    transactionalIdPrefix: s.prefix,
    topic: s.topic,
    parallelism: s.parallelism,
    restoredParallelism: s.restoredParallelism,
    transactionTimeoutMs: s.txnTimeoutMs,
    inputs: s.total,
    inputsPerCheckpoint: s.perCheckpoint,
    restoredFromCheckpoint: checkpoint.id,
    newestCheckpoint: latest.id,
    restoredTransactionTimeoutMs: restoredTxnTimeoutMs,
    // what the restored job logged: the ids its LISTING abort skipped as pre-committed, the ids whose commit was fenced
    skippedAtRestore: idsLogged(second.log, /Skipping transaction/),
    fencedCommits: idsLogged(second.log, /Unable to commit transaction/),
    openAtEnd: final.describeTransactions
      .filter((d) => d.state === 'Ongoing')
      .map((d) => d.transactionalId)
      .sort(),
    heldInCommitter: held,
    droppedCommits: dropped,
    inputsNeverReadCommitted: lost,
    duplicateInputs: duplicates,
  }
  return { obs, flink, steps, copy: [...dirsOf([[s.topic, s.partitions]]), ...dirsOf([['__transaction_state', 3]])] }
}
