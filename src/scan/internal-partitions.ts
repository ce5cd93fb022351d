// Which partitions of an internal topic (__transaction_state, __consumer_offsets ...) a command reads: those given
// among its paths, and those found in the log directory of a partition given (the same broker's). One rule, so that
// a partition directory given alone gets the coordinator's records that sit beside it in every command: the broker
// loads them from the same log directory (LogManager.loadLogs), and a transaction's verdict depends on them.
import * as path from 'node:path'
import type { PartitionDir } from '../io/discover.js'
import { discover } from '../io/discover.js'
import { namesIn } from '../io/dir-listing.js'

/** the partitions of `topic` among `given` and in their log directories, in the order found; `logDirs`: where tsdump looked */
export function internalPartitionsFor(
  topic: string,
  given: readonly PartitionDir[],
): { dirs: PartitionDir[]; logDirs: string[] } {
  const byPath = new Map<string, PartitionDir>()
  const logDirs = new Set<string>()
  for (const p of given) {
    logDirs.add(path.resolve(p.logDir))
    if (p.topic === topic) byPath.set(path.resolve(p.path), p)
  }
  const name = new RegExp(`^${topic}-\\d+$`)
  for (const ld of logDirs) {
    for (const n of namesIn(ld)) {
      if (!name.test(n)) continue
      const full = path.join(ld, n)
      if (byPath.has(full)) continue
      for (const p of discover([full]).partitions) byPath.set(full, p)
    }
  }
  return { dirs: [...byPath.values()], logDirs: [...logDirs] }
}
