// A partition's leader epoch lineage as the broker loads it from its leader-epoch-checkpoint (LeaderEpochFileCache's
// constructor assigns each entry in turn: analysis/replicas/epoch-rule.ts assignEpoch), for checking its remote
// segments' lineages against it (analysis/remote-epochs.ts). A missing or damaged file gives none: `tsdump dump`
// and `tsdump replicas` report the damage (EPOCH_CHECKPOINT_DAMAGED).
import type { EpochStart } from '../analysis/remote-epochs.js'
import { assignEpoch, PackedEpochs } from '../analysis/replicas/epoch-rule.js'
import type { PartitionDir } from '../io/discover.js'
import { leaderEpochEntries, readOptionalFile } from '../io/partition-files.js'

/** partitionLineage of the partition, its leader-epoch-checkpoint read once and the answer kept on the partition */
export function lineageOf(dir: PartitionDir): readonly EpochStart[] | null {
  if (dir.epochLineage === undefined) dir.epochLineage = partitionLineage(dir.path)
  return dir.epochLineage
}

/** the cache's entries in order, or null when there is no usable leader-epoch-checkpoint in `dir` */
export function partitionLineage(dir: string): EpochStart[] | null {
  const read = readOptionalFile(dir, 'leader-epoch-checkpoint', (src, file) => {
    const cache = new PackedEpochs()
    let refused = false
    const end = leaderEpochEntries(file, src, (e) => {
      if (!assignEpoch(cache, e.epoch, e.startOffset)) refused = true
    })
    return end.problem !== null || refused ? null : cache
  })
  const cache = read.value
  if (cache === null || cache.length === 0) return null
  const out: EpochStart[] = []
  for (let i = 0; i < cache.length; i++) {
    const e = cache.at(i)!
    out.push({ epoch: e.epoch, offset: e.startOffset })
  }
  return out
}
