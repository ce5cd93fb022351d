// A partition's remote segments before its scan reads them: opened first (those that fail are findings and are
// not read), and their frames watched for the offsets and leader epochs their metadata is checked against.
// Split out of partition-scan.ts.
import { finding } from '../analysis/findings.js'
import type { FindingList } from '../analysis/finding-list.js'
import type { RemoteSegmentSeen } from '../analysis/remote-offsets.js'
import type { FrameScanner } from '../decode/frame-scanner.js'
import * as L from '../decode/layout.js'
import type { SegmentSource } from '../decode/segment-source.js'
import type { KafkaFile } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { openKafkaFile } from '../io/remote/open.js'
import { withHead } from '../io/probed-source.js'
import { InputError } from '../io/input-error.js'

/** a remote segment's frames, their offsets and leader epochs noted on the way (checked against its metadata) */
export function watched(frames: FrameScanner, seen: RemoteSegmentSeen): Pick<FrameScanner, 'next'> {
  return {
    next: () => {
      const ev = frames.next()
      if (ev?.kind === 'frame' && ev.magic >= 2) {
        const base = ev.window.readBigInt64BE(ev.offset + L.OFFSET_OFFSET)
        seen.batch(
          base,
          base + BigInt(ev.window.readInt32BE(ev.offset + L.LAST_OFFSET_DELTA_OFFSET)),
          ev.window.readInt32BE(ev.offset + L.PARTITION_LEADER_EPOCH_OFFSET),
          ev.position,
        )
      }
      return ev
    },
  }
}

/**
 * How many probed sources stay open for the scan, and the bytes they may hold: a remote source keeps the chunk it
 * read (an S3 source up to 2 MiB, io/remote/s3-store.ts CHUNK), so a partition of 100 remote segments of real size
 * kept open would hold 200 MiB, and one of thousands in a directory as many descriptors. Past the budget a source is closed after
 * its probe and opened again when the scan reaches it (one more GET of its first chunk).
 */
const KEEP_OPEN = 256
/**
 * An S3 source holds no descriptor, only its chunk (within KEEP_BYTES) and a few hundred bytes: the count bound is
 * for many small segments, each closed past it and fetched again (100 partitions of 300 remote segments from moto:
 * 44 GETs more a partition with 256)
 */
const KEEP_OPEN_S3 = 4096
const KEEP_BYTES = 8 * 1024 * 1024
const HELD_PER_SOURCE = 2 * 1024 * 1024
/** what the probe reads of a segment, and a kept source holds for the scan: a batch header's worth and more */
const PROBE_BYTES = 4096

/** The remote segments opened and their first bytes read before anything else; those that fail are findings. */
export function openRemoteLogs(
  logs: KafkaFile[],
  findings: FindingList,
): { sources: Map<KafkaFile, SegmentSource>; failed: Set<bigint | null> } {
  const sources = new Map<KafkaFile, SegmentSource>()
  const failed = new Set<bigint | null>()
  let held = 0
  for (const f of logs) {
    if (f.remote === undefined) continue
    let src: SegmentSource | undefined
    try {
      src = openKafkaFile(f)
      // the probe's bytes are the scan's first ones: served from here, not read again
      const head = src.size > 0 ? src.readAt(0, Math.min(src.size, PROBE_BYTES)) : Buffer.alloc(0)
      const holds = Math.min(src.size, HELD_PER_SOURCE)
      const keep = f.remote.storage.startsWith('s3://') ? KEEP_OPEN_S3 : KEEP_OPEN
      if (sources.size < keep && held + holds <= KEEP_BYTES) {
        sources.set(f, withHead(src, head))
        held += holds
      } else src.close()
    } catch (e) {
      src?.close()
      failed.add(f.baseOffset)
      findings.push(
        finding(e instanceof InputError ? e.code : 'REMOTE_UNREADABLE', describeFsError(e), {
          file: f.path,
          position: 0,
        }),
      )
    }
  }
  return { sources, failed }
}
