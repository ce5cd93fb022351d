// The shapes of Flink KafkaSink attribution (flink-ids.ts), apart so that the attribution stays one readable file.

/** what this analysis reads of a joined transaction (types.ts JoinedTransaction has these fields) */
export interface FlinkTxnInput {
  transactionalId: string | null
  producerId: bigint
  producerEpoch: number
  outcome: string
  runs: ReadonlyArray<{
    topic: string
    partition: number
    firstOffset: bigint
    lastDataOffset: bigint | null
    records: number
  }>
  abortCause: {
    by: string
    startedAt: bigint
    deadline: bigint
    preparedAt: bigint
    transactionTimeoutMs: number
  } | null
  firstTimestamp: bigint | null
  episode: { states: ReadonlyArray<{ timestamp: bigint }> } | null
}

/** what it reads of the coordinator's newest state of an id (transactional-id-state.ts TransactionalIdState) */
export interface FlinkIdStateInput {
  transactionalId: string
  producerEpoch: number | null
  state: string | null
  transactionTimeoutMs: number | null
}

export type FlinkNaming = 'INCREMENTING' | 'POOLING' | 'unknown'
export type LingeringCause = 'FLINK-40626' | 'removed-subtask' | 'changed-prefix' | 'unknown'

export interface FlinkLingering {
  transactionalId: string
  subtask: number
  records: number
  cause: LingeringCause
  /** the facts of the files the cause rests on */
  because: string
}

export interface FlinkLostTransaction {
  transactionalId: string
  producerId: bigint
  producerEpoch: number
  subtask: number
  counter: number
  records: number
  partitions: Array<{
    topic: string
    partition: number
    firstOffset: bigint
    lastDataOffset: bigint | null
    records: number
  }>
  /** the lowest counter written after the coordinator aborted it (the restored job's first checkpoint) */
  nextId: string
  /** what Flink's KafkaCommitter logs when the restored job's commit of it is fenced */
  flinkLog: string
  timeoutMs: number
}

export interface FlinkSink {
  prefix: string
  naming: FlinkNaming
  /** the facts the naming rests on */
  namingBecause: string
  ids: number
  /** subtasks whose ids wrote records, and the ids that never wrote (listed apart: PROBING's ids, a writer's next id) */
  subtasksWrote: number[]
  neverWrote: string[]
  /** the subtasks that wrote, phase by phase: INCREMENTING by counter ranges, POOLING by the time they wrote */
  phases: Array<{ fromCounter: number | null; toCounter: number | null; subtasks: number[] }>
  lingering: FlinkLingering[]
  lost: FlinkLostTransaction[]
}
