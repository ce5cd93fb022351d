// A filter as the library takes it, resolved as the command line resolves its flags: a transactional id
// becomes the producer ids it wrote with (scan/transactional-id.ts), and an id with no record, or bounds
// that cross, are a TsdumpError (the command line's exit 2), never a filter that silently lets all in.
import type { RangeSpec } from '../analysis/range-filter.js'
import { TsdumpError } from '../analysis/tsdump-error.js'
import { resolveTransactionalId } from './transactional-id.js'

/**
 * `filter` with `transactionalId` resolved to `producerIds` (unless they are given: the command line resolved it).
 * @throws TsdumpError NOT_FOUND when the id has no __transaction_state record among or beside `paths`; USAGE when bounds cross
 */
export function resolveFilter(filter: RangeSpec | undefined, paths: readonly string[]): RangeSpec | undefined {
  if (filter === undefined) return undefined
  if (filter.startOffset !== undefined && filter.endOffset !== undefined && filter.startOffset > filter.endOffset) {
    throw new TsdumpError('USAGE', `filter: startOffset ${filter.startOffset} is after endOffset ${filter.endOffset}`)
  }
  if (filter.fromTime !== undefined && filter.toTime !== undefined && filter.fromTime > filter.toTime) {
    throw new TsdumpError('USAGE', `filter: fromTime ${filter.fromTime} is after toTime ${filter.toTime}`)
  }
  if (filter.transactionalId === undefined || filter.producerIds !== undefined) return filter
  const r = resolveTransactionalId(filter.transactionalId, paths)
  if ('error' in r) throw new TsdumpError('NOT_FOUND', r.error)
  return { ...filter, producerIds: r.producerIds }
}
