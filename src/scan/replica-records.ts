// Compacted partitions compared record by record: each broker's log cleaner rewrites its own copy on its own
// schedule (LogCleaner), so below the cleaned point two healthy copies hold different batches, yet a record
// both still hold at an offset is the same record: the same key and value. Both copies are walked in offset
// order together, one batch of each read at a time.
import { createHash } from 'node:crypto'
import type { ReplicaBatch } from '../analysis/replicas/replica-input.js'
import { decodeBatchHeader } from '../decode/batch-header.js'
import { decodeRecords } from '../decode/records.js'
import { FileSource } from '../io/file-source.js'

/** batches read whole for their records at most this large; a larger one is left out of the comparison */
const MAX_BATCH_BYTES = 16 * 1024 * 1024

export interface RecordDigest {
  offset: bigint
  key: string
  value: string
}

export interface CompactedComparison {
  /** offsets below `below` held by both copies, compared by key and value digest */
  compared: number
  /** batches that could not be read for their records (too large, damaged) */
  unread: number
  first: { offset: bigint; mine: RecordDigest; theirs: RecordDigest } | null
}

const digest = (b: Buffer | null): string => (b === null ? 'null' : createHash('sha256').update(b).digest('base64'))

function* digests(batches: Iterable<ReplicaBatch>, below: bigint, unread: { n: number }): Generator<RecordDigest> {
  for (const b of batches) {
    if (b.baseOffset >= below) return
    if (b.isControl) continue
    if (b.size > MAX_BATCH_BYTES) {
      unread.n++
      continue
    }
    let src: FileSource | null = null
    const out: RecordDigest[] = []
    try {
      src = new FileSource(b.file)
      const bytes = src.readAt(b.position, b.size)
      for (const r of decodeRecords(decodeBatchHeader(bytes, b.position), bytes)) {
        if (r.offset >= below) break
        out.push({ offset: r.offset, key: digest(r.key), value: digest(r.value) })
      }
    } catch {
      // damage in the batch is reported by the partition scan; here it only leaves the batch uncompared
      unread.n++
    } finally {
      src?.close()
    }
    yield* out
  }
}

/** Records at the same offset below `below` in both copies: same key and value digest (SHA-256)? */
export function compareCompacted(
  mine: Iterable<ReplicaBatch>,
  theirs: Iterable<ReplicaBatch>,
  below: bigint,
): CompactedComparison {
  const unread = { n: 0 }
  const a = digests(mine, below, unread)
  const b = digests(theirs, below, unread)
  let x = a.next()
  let y = b.next()
  let compared = 0
  while (x.done !== true && y.done !== true) {
    if (x.value.offset < y.value.offset) {
      x = a.next()
      continue
    }
    if (y.value.offset < x.value.offset) {
      y = b.next()
      continue
    }
    compared++
    if (x.value.key !== y.value.key || x.value.value !== y.value.value) {
      // the walks stop here: their batch streams close (and give back their read windows)
      a.return(undefined)
      b.return(undefined)
      return { compared, unread: unread.n, first: { offset: x.value.offset, mine: x.value, theirs: y.value } }
    }
    x = a.next()
    y = b.next()
  }
  a.return(undefined)
  b.return(undefined)
  return { compared, unread: unread.n, first: null }
}
