// A filter as the library takes it, resolved as the command line resolves its flags: a transactional id
// becomes the producer ids it wrote with (scan/transactional-id.ts), and an id with no record, or bounds
// that cross, are a TsdumpError (the command line's exit 2), never a filter that silently lets all in.
// A command with a broker model resolves the id from the model's one read of the coordinator's records
// (resolveFilterIn); one without reads them for it (resolveFilter).
import * as path from 'node:path'
import type { RangeSpec } from '../analysis/range-filter.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import type { PartitionDir } from '../io/discover.js'
import type { MetadataPartitionCounts } from './metadata-partitions.js'
import { coordinatorPartitionCountFrom } from './metadata-partitions.js'
import type { IdProducerIds } from './transactional-id.js'
import { resolveTransactionalId, transactionalIdAnswer } from './transactional-id.js'

/** what resolveFilterIn reads of a broker model (scan/broker-model.ts BrokerModel; named here, not imported: it imports this) */
export interface CoordinatorReads {
  readonly paths: readonly string[]
  watchedId(): IdProducerIds | null
  transactionState(): unknown
  internalPartitions(topic: string): PartitionDir[]
  resolved(): { partitions: PartitionDir[] }
  partitionCounts(): MetadataPartitionCounts | null
}

const STATE_TOPIC = '__transaction_state'

/** @throws TsdumpError USAGE when the filter's bounds cross */
export function checkFilterBounds(filter: RangeSpec | undefined): void {
  if (filter === undefined) return
  if (filter.startOffset !== undefined && filter.endOffset !== undefined && filter.startOffset > filter.endOffset) {
    throw new TsdumpError('USAGE', `filter: startOffset ${filter.startOffset} is after endOffset ${filter.endOffset}`)
  }
  if (filter.fromTime !== undefined && filter.toTime !== undefined && filter.fromTime > filter.toTime) {
    throw new TsdumpError('USAGE', `filter: fromTime ${filter.fromTime} is after toTime ${filter.toTime}`)
  }
}

/** whether `filter` names a transactional id not yet resolved to its producer ids */
export function needsIdResolved(filter: RangeSpec | undefined): filter is RangeSpec & { transactionalId: string } {
  return filter?.transactionalId !== undefined && filter.producerIds === undefined
}

/**
 * `filter` with `transactionalId` resolved to `producerIds` (unless they are given: the command line resolved it).
 * @throws TsdumpError NOT_FOUND when the id has no __transaction_state record among or beside `paths`; USAGE when bounds cross
 */
export function resolveFilter(filter: RangeSpec | undefined, paths: readonly string[]): RangeSpec | undefined {
  checkFilterBounds(filter)
  if (!needsIdResolved(filter)) return filter
  const r = resolveTransactionalId(filter.transactionalId, paths)
  if ('error' in r) throw new TsdumpError('NOT_FOUND', r.error)
  return { ...filter, producerIds: r.producerIds }
}

/**
 * resolveFilter with the producer ids from `model`'s read of the coordinator's records (made with
 * BrokerModelOptions.transactionalId, read now if the model has not read them yet).
 * @throws TsdumpError NOT_FOUND, USAGE as resolveFilter
 */
export function resolveFilterIn(filter: RangeSpec | undefined, model: CoordinatorReads): RangeSpec | undefined {
  checkFilterBounds(filter)
  if (!needsIdResolved(filter)) return filter
  const seen = model.watchedId()
  if (seen?.transactionalId !== filter.transactionalId)
    throw new Error(`the broker model was not made to watch ${filter.transactionalId}`)
  model.transactionState()
  const r = transactionalIdAnswer(seen, {
    dirs: model.internalPartitions(STATE_TOPIC),
    logDirs: [...new Set(model.resolved().partitions.map((p) => path.resolve(p.logDir)))],
    count: () => coordinatorPartitionCountFrom(STATE_TOPIC, model.paths, () => model.partitionCounts()),
  })
  if ('error' in r) throw new TsdumpError('NOT_FOUND', r.error)
  return { ...filter, producerIds: r.producerIds }
}
