// --transactional-id: the producer ids a transactional id has written with, from the __transaction_state
// records of the coordinator (its key is the transactional id, its value names the producer id and, from
// Kafka 4 on, the previous and next one when the id rolled over, KIP-890). Looked for among the given paths
// and in their broker log directories. Not found is a usage error that names where tsdump looked, never an
// empty result that reads as "this producer wrote nothing".
import { transactionStatePartitionFor } from '../analysis/coordinator.js'
import type { PartitionDir } from '../io/discover.js'
import { discover } from '../io/discover.js'
import { internalPartitionsFor } from './internal-partitions.js'
import { scanTransactionLog } from './transaction-log-scan.js'
import { coordinatorPartitionCountOf } from './metadata-partitions.js'

const STATE_TOPIC = '__transaction_state'

/** the __transaction_state partitions among `paths` or beside them (same broker log directory): scan/internal-partitions.ts's rule */
export function stateDirs(paths: readonly string[]): { dirs: PartitionDir[]; logDirs: string[] } {
  return internalPartitionsFor(STATE_TOPIC, discover(paths.filter((p) => p !== '-')).partitions)
}

/** The producer ids of `transactionalId`, ascending; or the usage error that says what was looked for where. */
export function resolveTransactionalId(
  transactionalId: string,
  paths: readonly string[],
): { producerIds: bigint[] } | { error: string } {
  const { dirs, logDirs } = stateDirs(paths)
  const n = coordinatorPartitionCountOf(STATE_TOPIC, paths)
  const hint =
    n === null
      ? `(${STATE_TOPIC}'s partition count is unknown here: no metadata log or ${STATE_TOPIC} directory; only if the broker kept ` +
        `Kafka's default of 50 would its coordinator be ${STATE_TOPIC}-${transactionStatePartitionFor(transactionalId, 50)})`
      : `(with ${n.atLeast ? 'at least ' : ''}${n.count} partitions, from ${n.from}, its coordinator is ${STATE_TOPIC}-${transactionStatePartitionFor(transactionalId, n.count)})`
  if (dirs.length === 0) {
    return {
      error:
        `--transactional-id ${transactionalId}: no ${STATE_TOPIC} partition among the paths or in their log directory ` +
        `(${logDirs.length === 0 ? 'none found' : logDirs.join(', ')}) to find its producer id in; give that partition's directory ${hint}, or use --producer-id`,
    }
  }
  const ids = new Set<bigint>()
  for (const dir of dirs) {
    scanTransactionLog(dir, (r) => {
      if (r.transactionalId !== transactionalId || r.value === null) return
      for (const id of [r.value.producerId, r.value.previousProducerId, r.value.nextProducerId])
        if (id !== null && id >= 0n) ids.add(id)
    })
  }
  if (ids.size === 0) {
    return {
      error:
        `--transactional-id ${transactionalId}: no ${STATE_TOPIC} record of this id (looked for its producer id in ` +
        `${dirs.map((d) => d.path).join(', ')}) ${hint}`,
    }
  }
  return { producerIds: [...ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0)) }
}
