// The shapes of Kafka Streams attribution (streams-ids.ts), apart so that types.ts can name them without an import cycle.

export type RestartEffect = 'fences' | 'lingers'

export interface StreamsTransaction {
  transactionalId: string
  processId: string
  thread: number
  producerId: bigint
  producerEpoch: number
  /** open, or aborted by the coordinator's timeout */
  outcome: 'open' | 'aborted'
  /** what a restart does (or did) to it while it is open: fences it at once, or leaves it to the timeout */
  restart: RestartEffect
  why: string
  /** start + transactionTimeoutMs from the coordinator's records; null without them */
  deadline: bigint | null
  /** its changelog partitions (written in the same transaction) */
  changelogs: string[]
}

export interface StreamsApplication {
  applicationId: string
  /** in the order they first wrote */
  processIds: string[]
  /** starts with a new process id: process ids beyond the first */
  churn: number
  threads: number[]
  stores: string[]
  changelogs: string[]
  transactions: number
  /** its open transactions and those the coordinator had to abort, each with what a restart does */
  judged: StreamsTransaction[]
}
