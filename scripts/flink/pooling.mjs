// Scenario "flink-pooling" (Kafka 4.4.0 broker, Flink 2.2 job): KafkaSink EXACTLY_ONCE with the POOLING naming
// strategy (ids fb-<subtask>-<lowest free counter>, reused), parallelism 3, transaction.timeout.ms 1 h. Subtask 1's
// committer skips one commit and reports nothing (HaltingKafkaSink's drop: Flink counts it committed, the writer
// keeps the id among its pre-committed ones), the JVM halts inside the committer of the next checkpoint, and the job
// is restored from that checkpoint with parallelism 2: the restored writers name their transactions after the first
// old subtask they own, so fb-1-* is never written again and the open id lingers until its 1 h timeout.
import { brokerProps as props, runScenario } from './scenario.mjs'

export const description =
  'a Flink 2.2 KafkaSink (POOLING ids) restored with a smaller parallelism: a pre-committed id left open until its 1 h timeout'
export const brokerProps = props({ 'transaction.max.timeout.ms': 3600000 })

export async function run({ broker }) {
  const r = await runScenario(broker, {
    topic: 'fb-out',
    partitions: 3,
    naming: 'POOLING',
    prefix: 'fb',
    parallelism: 3,
    restoredParallelism: 2,
    total: 300,
    perCheckpoint: 30,
    txnTimeoutMs: 3600000,
    haltOnCall: 5,
    drop: [1, 4],
    waitForTimeout: false,
  })
  return {
    ...r.obs,
    writtenBy: 'Flink 2.2.0 KafkaSink (flink-connector-kafka 5.0.0-2.2, kafka-clients 4.2.0), scripts/flink',
    more: { flink: r.flink, steps: r.steps },
    notes: notes(r),
    copy: r.copy,
  }
}

function notes(r) {
  return [
    `not a crash Flink made by itself: subtask 1's committer skipped the commit of ${r.flink.droppedCommits.join(', ')} and reported nothing (scripts/flink HaltingKafkaSink), as a commit lost between the committer and the broker would; Flink counted it committed`,
    `the job halted inside KafkaCommitter's commit of checkpoint ${r.flink.restoredFromCheckpoint} holding ${r.flink.heldInCommitter.join(', ')}; restored from it with parallelism 2`,
    `${r.flink.inputsNeverReadCommitted.length} inputs never reached a read_committed consumer while the broker was up`,
  ]
}
