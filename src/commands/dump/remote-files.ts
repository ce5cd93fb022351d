// `dump --remote-storage`: each partition's remote segments dumped before its first local file, as files of their
// own. Their notes are said before anything is dumped (as a scan says them first); their files are made when the
// dump reaches the partition and dropped after it, so that a dump of many partitions does not hold every remote
// segment's entry (a key, a path and a size each) from the start.
import type { FindingCode } from '../../analysis/findings.js'
import { finding } from '../../analysis/findings.js'
import type { Discovery, KafkaFile, PartitionDir } from '../../io/discover.js'
import type { RemoteInput } from '../../io/remote/spec.js'
import { addRemoteSegments, planRemoteReads, remoteNotesOf, withRemoteSegments } from '../../scan/remote-segments.js'
import type { RangeSpec } from '../../analysis/range-filter.js'
import { segmentsOutOfRange } from './seek.js'
import type { FindingLog } from './finding-log.js'

export class RemoteDumpFiles {
  /** each partition by its first file among the found ones: its remote segments come before it */
  private readonly before = new Map<KafkaFile, PartitionDir>()

  /** @throws InputError when the storage cannot be used (scan/remote-segments.ts addRemoteSegments) */
  constructor(remote: RemoteInput, found: Discovery, log: FindingLog) {
    addRemoteSegments(remote, found.partitions)
    const owner = new Map<KafkaFile, PartitionDir>()
    for (const p of found.partitions) for (const f of p.files) owner.set(f, p)
    const done = new Set<PartitionDir>()
    for (const f of found.files) {
      const p = owner.get(f)
      if (p === undefined || done.has(p)) continue
      done.add(p)
      this.before.set(f, p)
      for (const n of remoteNotesOf(p))
        log.add(finding(n.code as FindingCode, n.message, { file: n.file ?? p.path, position: n.position ?? 0 }))
    }
  }

  /**
   * `all` with each partition's remote .log segments before its first file, those `asked` only; a remote segment
   * outside the range of `filter` is added to `unread` (seek.ts segmentsOutOfRange, per partition)
   */
  *files(
    all: readonly KafkaFile[],
    asked: (f: KafkaFile) => boolean,
    unread: Set<string>,
    filter: RangeSpec | undefined,
  ): Generator<KafkaFile> {
    for (const f of all) {
      const p = this.before.get(f)
      if (p !== undefined) {
        const remote = withRemoteSegments(p).files.filter((x) => x.remote !== undefined && x.kind === 'log')
        if (filter !== undefined) for (const x of segmentsOutOfRange(remote, filter)) unread.add(x)
        planRemoteReads(remote)
        for (const r of remote) if (asked(r)) yield r
      }
      if (asked(f)) yield f
    }
  }
}
