// Scenario "flink-incrementing" (Kafka 4.4.0 broker, Flink 2.2 job): KafkaSink EXACTLY_ONCE with the INCREMENTING
// naming strategy (ids fa-<subtask>-<checkpoint>), parallelism 3, transaction.timeout.ms 10 s. The JVM halts inside
// the committer after checkpoint 5 completed (its transactions pre-committed, never committed); after the
// coordinator has aborted them for their timeout the job is restored from checkpoint 5 with parallelism 2: its
// committer's commit is fenced (Flink logs the data loss), PROBING aborts and creates ids of subtasks 3 and 4.
import { brokerProps as props, runScenario } from './scenario.mjs'

export const description =
  "a Flink 2.2 KafkaSink (INCREMENTING ids) halted inside its committer, its pre-committed transactions aborted by the coordinator's timeout, restored with a smaller parallelism: data loss"
export const brokerProps = props()

export async function run({ broker }) {
  const r = await runScenario(broker, {
    topic: 'fa-out',
    partitions: 3,
    naming: 'INCREMENTING',
    prefix: 'fa',
    parallelism: 3,
    restoredParallelism: 2,
    total: 300,
    perCheckpoint: 30,
    txnTimeoutMs: 10000,
    haltOnCall: 5,
    waitForTimeout: true,
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
    `the job halted (Runtime.halt) inside KafkaCommitter's commit of checkpoint ${r.flink.restoredFromCheckpoint} on every subtask, so ${r.flink.heldInCommitter.join(', ')} were pre-committed and never committed`,
    `restored from checkpoint ${r.flink.restoredFromCheckpoint} after the coordinator had aborted them: ${r.flink.inputsNeverReadCommitted.length} inputs never reached a read_committed consumer`,
  ]
}
