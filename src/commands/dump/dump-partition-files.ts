// The partition-level text files in `tsdump dump` (kafka-dump-log reads none of them): leader-epoch-checkpoint
// checked against the batches' own partitionLeaderEpoch, partition.metadata (its topic id against the other
// copies of the topic given in the run), meta.properties and a log directory's offset checkpoints. Each is
// parsed as Kafka's CheckpointFile / PartitionMetadataFile / Properties reads it; damage is a finding at the line.
import * as path from 'node:path'
import { finding } from '../../analysis/findings.js'
import { readLog } from '../../decode/log-reader.js'
import type { KafkaFile } from '../../io/discover.js'
import { FileSource } from '../../io/file-source.js'
import { openSmallFile } from '../../io/text-lines.js'
import type { EpochEntry } from '../../io/partition-files.js'
import { EpochRuns } from './epoch-runs.js'
import { HeldSegments } from '../../io/held-segments.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import {
  leaderEpochEntries,
  leaderEpochList,
  offsetCheckpointEntries,
  offsetCheckpointList,
  parsePartitionMetadata,
  parseProperties,
} from '../../io/partition-files.js'
import { namesOfKind } from '../../io/segment-names.js'
import { namesIn } from '../../io/dir-listing.js'
import type { DumpPrinter } from '../../format/printer.js'
import type { FindingLog } from './finding-log.js'

/** topic name -> the first topic id seen for it in this run, and where */
export type TopicIds = Map<string, { topicId: string; file: string }>

/** distinct meta.properties keys listed (Kafka writes a handful) */
const MAX_PROPERTIES = 10_000

export function dumpPartitionFile(
  file: KafkaFile,
  printer: DumpPrinter,
  log: FindingLog,
  topicIds: TopicIds,
  epochs?: EpochRuns,
): void {
  // read line by line: a checkpoint is checked as Kafka loads it, then printed (and a leader-epoch-checkpoint walked
  // again for the epoch check), each pass after the first through what the first held: each byte read from disk once
  const early = epochs?.dir === path.dirname(file.path) ? epochs.held : undefined
  const held = early ?? new HeldSegments(CHECKPOINT_HELD_MEMORY, 'checkpoint-held')
  try {
    const src = held.once(path.resolve(file.path), openSmallFile(file.path))
    try {
      dumpOpened(file, src, printer, log, topicIds, epochs)
    } finally {
      src.close()
    }
  } finally {
    held.close()
    if (early !== undefined) epochs!.held = undefined
  }
}

/** what a checkpoint's passes hold in memory before a scratch file: the line reader's one chunk */
const CHECKPOINT_HELD_MEMORY = 64 * 1024

/**
 * The epoch runs of partition directory `dir`, its leader-epoch-checkpoint's entry starts read first (each run of one
 * epoch ends where an entry starts, so that the check after the segments needs no second read of them) and the bytes
 * of that read held for the file's own dump after the segments
 */
export function epochRunsFor(dir: string): EpochRuns {
  const runs = new EpochRuns(dir)
  const file = path.resolve(dir, 'leader-epoch-checkpoint')
  const held = new HeldSegments(CHECKPOINT_HELD_MEMORY, 'checkpoint-held')
  let src: SegmentSource
  try {
    src = held.tee(file, openSmallFile(file))
  } catch {
    held.close()
    return runs // the file's own dump reports it
  }
  try {
    const starts: bigint[] = []
    const end = leaderEpochEntries(file, src, (e) => {
      if (starts.length <= MAX_CACHE_STARTS) starts.push(e.startOffset)
    })
    if (end.problem === null && end.order === null && starts.length <= MAX_CACHE_STARTS) runs.cacheStarts(starts)
  } catch {
    // an I/O error is the file's own dump's finding
  } finally {
    src.close()
  }
  runs.held = held
  return runs
}

/** cache entries kept as run boundaries (a cache holds one per leader election): past it the check reads the segments */
const MAX_CACHE_STARTS = 1 << 16

function dumpOpened(
  file: KafkaFile,
  src: SegmentSource,
  printer: DumpPrinter,
  log: FindingLog,
  topicIds: TopicIds,
  epochs: EpochRuns | undefined,
): void {
  switch (file.name) {
    case 'leader-epoch-checkpoint': {
      const end = leaderEpochEntries(file.path, src, () => {})
      if (end.problem !== null) {
        log.add(
          finding('EPOCH_CHECKPOINT_DAMAGED', `${end.problem.message}: Kafka cannot load this file`, {
            file: file.path,
            position: end.problem.position,
          }),
        )
        return
      }
      printer.partitionFile(file, {
        type: 'leader-epoch-checkpoint',
        version: 0,
        count: end.found,
        entries: leaderEpochList(file.path, src),
      })
      if (end.order !== null)
        log.add(
          finding('EPOCH_CHECKPOINT_DAMAGED', `${end.order.message}: ${end.order.kafkaLoads}`, {
            file: file.path,
            position: end.order.position,
          }),
        )
      checkEpochs(file, () => leaderEpochList(file.path, src), log, epochs)
      return
    }
    case 'partition.metadata': {
      const p = parsePartitionMetadata(file.path, src)
      if (p.problem !== null) {
        log.add(
          finding('PARTITION_METADATA_DAMAGED', p.problem.message, { file: file.path, position: p.problem.position }),
        )
        return
      }
      printer.partitionFile(file, { type: 'partition.metadata', version: p.value.version, topicId: p.value.topicId })
      const topic = file.topic
      if (topic === undefined) return
      const seen = topicIds.get(topic)
      if (seen === undefined) topicIds.set(topic, { topicId: p.value.topicId, file: file.path })
      else if (seen.topicId !== p.value.topicId) {
        log.add(
          finding(
            'REPLICA_TOPIC_ID_DIFFERS',
            `topic ${topic} has topic id ${p.value.topicId} here and ${seen.topicId} in ${seen.file}: the topic was deleted and recreated, and one of these copies is of the old topic`,
            { file: file.path, position: 0 },
          ),
        )
      }
      return
    }
    case 'meta.properties': {
      const { properties: props, more } = parseProperties(src, undefined, MAX_PROPERTIES)
      printer.partitionFile(file, { type: 'meta.properties', properties: [...props] })
      // MetaProperties: version, cluster.id and node.id (broker.id before KRaft) are what a broker needs to start
      const missing = ['version', 'cluster.id'].filter((k) => !props.has(k))
      if (!props.has('node.id') && !props.has('broker.id')) missing.push('node.id')
      if (missing.length > 0)
        log.add(
          finding(
            'META_PROPERTIES_DAMAGED',
            `no ${missing.join(', ')}: the broker refuses to start with this log directory`,
            { file: file.path, position: 0 },
          ),
        )
      if (more > 0)
        log.add(
          finding(
            'META_PROPERTIES_DAMAGED',
            `more than ${MAX_PROPERTIES} distinct keys (Kafka writes a handful): the first ${MAX_PROPERTIES} are listed, ${more} left out`,
            { file: file.path, position: 0 },
          ),
        )
      return
    }
    default: {
      const end = offsetCheckpointEntries(file.path, src, () => {})
      if (end.problem !== null) {
        log.add(
          finding('OFFSET_CHECKPOINT_DAMAGED', `${end.problem.message}: Kafka cannot load this file`, {
            file: file.path,
            position: end.problem.position,
          }),
        )
        return
      }
      printer.partitionFile(file, {
        type: 'offset-checkpoint',
        name: file.name,
        version: 0,
        count: end.found,
        entries: offsetCheckpointList(file.path, src),
      })
    }
  }
}

/**
 * Every batch's partitionLeaderEpoch against the cache: the epoch the checkpoint gives its base offset (the entry
 * with the greatest start offset at or below it) must be the batch's. Entries without batches (an epoch that wrote
 * nothing, or whose batches were compacted or deleted) are allowed, as LeaderEpochFileCache keeps them.
 */
function checkEpochs(
  file: KafkaFile,
  list: () => Iterable<EpochEntry>,
  log: FindingLog,
  epochs: EpochRuns | undefined,
): void {
  const dir = path.dirname(file.path)
  const logs = namesOfKind(namesIn(dir), 'log').map(({ name }) => path.join(dir, name))
  // what the segments' dumps saw, when they read every segment of the partition just before
  const seen = epochs?.dir === dir ? epochs.check(list(), logs) : undefined
  const { wrong, first } = seen ?? readEpochs(logs, list())
  if (first !== null) {
    log.add(
      finding(
        'EPOCH_CHECKPOINT_MISMATCH',
        `${wrong} batches disagree with this cache; the first, at offset ${first.baseOffset} (${first.log} position ${first.position}), has leader epoch ${first.epoch} where the cache says ${first.cached ?? 'no epoch'}: a follower comparing epochs with this copy would truncate at the wrong offset`,
        { file: file.path, position: 0 },
      ),
    )
  }
}

/** every batch's epoch read from the segments, beside the cache's entries */
function readEpochs(
  logs: readonly string[],
  list: Iterable<EpochEntry>,
): {
  wrong: number
  first: { epoch: number; cached: number | null; baseOffset: bigint; log: string; position: number } | null
} {
  // the entries are read beside the batches, both in offset order: the current entry and the next
  const entries = list[Symbol.iterator]()
  let cur: EpochEntry | null = null
  let next: EpochEntry | null = entries.next().value ?? null
  let wrong = 0
  let first: { epoch: number; cached: number | null; baseOffset: bigint; log: string; position: number } | null = null
  for (const seg of logs) {
    let src: FileSource
    try {
      src = new FileSource(seg)
    } catch {
      continue
    } // the segment's own dump reports it
    try {
      for (const ev of readLog(src, { headersOnly: true, verifyCrc: false })) {
        if (ev.kind !== 'batch') continue
        const h = ev.header
        if (h.partitionLeaderEpoch < 0) continue
        while (next !== null && next.startOffset <= h.baseOffset) {
          cur = next
          next = entries.next().value ?? null
        }
        const cached = cur === null ? null : cur.epoch
        if (cached !== h.partitionLeaderEpoch) {
          wrong++
          if (first === null)
            first = { epoch: h.partitionLeaderEpoch, cached, baseOffset: h.baseOffset, log: seg, position: h.position }
        }
      }
    } catch {
      // damage in a segment is the segment dump's finding
    } finally {
      src.close()
    }
  }
  return { wrong, first }
}
