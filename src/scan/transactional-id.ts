// --transactional-id: the producer ids a transactional id has written with, from the __transaction_state
// records of the coordinator (its key is the transactional id, its value names the producer id and, from
// Kafka 4 on, the previous and next one when the id rolled over, KIP-890). Looked for among the given paths
// and in their broker log directories. Not found is a usage error that names where tsdump looked, never an
// empty result that reads as "this producer wrote nothing". A command with a broker model takes the ids from
// the model's one read of the coordinator's records (BrokerModelOptions.transactionalId); a command without
// one reads them here.
import type { CoordinatorPartitionCount } from '../analysis/coordinator.js'
import { transactionStatePartitionFor } from '../analysis/coordinator.js'
import type { TransactionStateRecord } from '../analysis/transactional-id-state.js'
import type { PartitionDir } from '../io/discover.js'
import { discover } from '../io/discover.js'
import { internalPartitionsFor } from './internal-partitions.js'
import { scanTransactionLog } from './transaction-log-scan.js'
import { coordinatorPartitionCountOf } from './metadata-partitions.js'
import type { IdWatch } from './transaction-state-read.js'

const STATE_TOPIC = '__transaction_state'

/** the __transaction_state partitions among `paths` or beside them (same broker log directory): scan/internal-partitions.ts's rule */
export function stateDirs(paths: readonly string[]): { dirs: PartitionDir[]; logDirs: string[] } {
  return internalPartitionsFor(STATE_TOPIC, discover(paths.filter((p) => p !== '-')).partitions)
}

/** every producer id one transactional id's records name (its producer, and KIP-890's previous and next ones) */
export class IdProducerIds implements IdWatch {
  private readonly ids = new Set<bigint>()
  constructor(readonly transactionalId: string) {}

  see(r: TransactionStateRecord): void {
    if (r.transactionalId !== this.transactionalId || r.value === null) return
    for (const id of [r.value.producerId, r.value.previousProducerId, r.value.nextProducerId])
      if (id !== null && id >= 0n) this.ids.add(id)
  }

  /** the ids `other` found, found here too */
  add(other: IdProducerIds): void {
    for (const id of other.ids) this.ids.add(id)
  }

  clear(): void {
    this.ids.clear()
  }

  /** ascending */
  sorted(): bigint[] {
    return [...this.ids].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0))
  }
}

/** where the id was looked for: the coordinator partitions read, the log directories, the partition count known (asked only when the id is not found) */
export interface LookedIn {
  dirs: readonly PartitionDir[]
  logDirs: readonly string[]
  count: () => CoordinatorPartitionCount | null
}

/** The producer ids of `seen`'s id, ascending; or the usage error that says what was looked for where. */
export function transactionalIdAnswer(
  seen: IdProducerIds,
  where: LookedIn,
): { producerIds: bigint[] } | { error: string } {
  const id = seen.transactionalId
  const producerIds = seen.sorted()
  if (where.dirs.length > 0 && producerIds.length > 0) return { producerIds }
  const n = where.count()
  const hint =
    n === null
      ? `(${STATE_TOPIC}'s partition count is unknown here: no metadata log or ${STATE_TOPIC} directory; only if the broker kept ` +
        `Kafka's default of 50 would its coordinator be ${STATE_TOPIC}-${transactionStatePartitionFor(id, 50)})`
      : `(with ${n.atLeast ? 'at least ' : ''}${n.count} partitions, from ${n.from}, its coordinator is ${STATE_TOPIC}-${transactionStatePartitionFor(id, n.count)})`
  if (where.dirs.length === 0) {
    return {
      error:
        `--transactional-id ${id}: no ${STATE_TOPIC} partition among the paths or in their log directory ` +
        `(${where.logDirs.length === 0 ? 'none found' : where.logDirs.join(', ')}) to find its producer id in; give that partition's directory ${hint}, or use --producer-id`,
    }
  }
  return {
    error:
      `--transactional-id ${id}: no ${STATE_TOPIC} record of this id (looked for its producer id in ` +
      `${where.dirs.map((d) => d.path).join(', ')}) ${hint}`,
  }
}

/** The producer ids of `transactionalId`, ascending, read here (a command without a broker model); or the usage error. */
export function resolveTransactionalId(
  transactionalId: string,
  paths: readonly string[],
): { producerIds: bigint[] } | { error: string } {
  const { dirs, logDirs } = stateDirs(paths)
  const seen = new IdProducerIds(transactionalId)
  for (const dir of dirs) scanTransactionLog(dir, (r) => seen.see(r))
  return transactionalIdAnswer(seen, { dirs, logDirs, count: () => coordinatorPartitionCountOf(STATE_TOPIC, paths) })
}
