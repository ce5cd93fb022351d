// Scenario "flink-pooling" (Kafka 4.4.0 broker, Flink 2.2 job): KafkaSink EXACTLY_ONCE with the POOLING naming
// strategy (ids fb-<subtask>-<lowest free counter>, reused), parallelism 3, transaction.timeout.ms 1 h. The JVM halts
// inside the committer of checkpoint 5 (its transactions pre-committed, never committed); the job is restored with
// parallelism 2 and a 60 s transaction.timeout.ms from checkpoint 3, the newest but two (as from an older retained
// checkpoint or a savepoint taken then). Checkpoint 3's state lists its ids as pre-committed, but they were committed
// and POOLING reused them for checkpoint 5 at a newer epoch: the restore's LISTING abort skips them, the committer's
// re-commit is fenced, and after the downscale the restored writers name their ids after the first old subtask they
// own (fb-0-*, fb-2-*), so subtask 1's id is never reused: open until its 1 h timeout (FLINK-40626). Nothing injected.
import { brokerProps as props, runScenario } from './scenario.mjs'

export const description =
  'a Flink 2.2 KafkaSink (POOLING ids) restored from an older checkpoint with a smaller parallelism: a reused id left open until its 1 h timeout (FLINK-40626)'
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
    restoredTxnTimeoutMs: 60000,
    haltOnCall: 5,
    waitForTimeout: false,
    restoreBack: 2,
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
  const f = r.flink
  const flink40626 = f.openAtEnd.filter((id) => f.skippedAtRestore.includes(id) && f.fencedCommits.includes(id))
  return [
    `the job halted inside KafkaCommitter's commit of checkpoint ${f.newestCheckpoint} holding ${f.heldInCommitter.join(', ')}; restored from checkpoint ${f.restoredFromCheckpoint} with parallelism ${f.restoredParallelism}`,
    `the restore skipped ${f.skippedAtRestore.join(', ') || 'no id'} as pre-committed (LISTING) and its committer's commit of ${f.fencedCommits.join(', ') || 'no id'} was fenced`,
    flink40626.length > 0
      ? `open at the end, skipped and fenced (FLINK-40626): ${flink40626.join(', ')}`
      : `no id left open by the restore (open at the end: ${f.openAtEnd.join(', ') || 'none'})`,
    `${f.inputsNeverReadCommitted.length} inputs never reached a read_committed consumer while the broker was up; ${f.duplicateInputs.length} read twice (the restore replayed from checkpoint ${f.restoredFromCheckpoint})`,
  ]
}
