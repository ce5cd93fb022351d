// The findings a segment's framing events imply, written once so that dump and the partition commands
// (reconcile, txns, lso) report the same fault with the same code and the same words.
import type { CorruptEvent, TailEvent } from '../decode/frame.js'
import type { DecodeError } from '../decode/errors.js'
import type { Finding } from './findings.js'
import { finding } from './findings.js'

/**
 * ZERO_TAIL, TRUNCATED_TAIL or SHORT_TAIL for the bytes after the last complete batch. In a remote segment zeros
 * are lost data (REMOTE_ZERO_FILLED): RemoteStorageManager.copyLogSegmentData uploads a closed segment, whose
 * file UnifiedLog trimmed to its size when it rolled (LogSegment.onBecomeInactiveSegment), never a preallocated tail.
 */
export function tailFinding(ev: TailEvent, file: string, remote = false): Finding {
  const at = { file, position: ev.position }
  if (ev.unended === true) {
    return finding(
      'STREAM_NOT_ENDING',
      `the input went on for ${ev.length} bytes from here without a valid batch and did not end; stopped reading it there (a stream is read at most that far past its last valid batch)`,
      at,
    )
  }
  if (ev.reason === 'zeros' && remote)
    return finding(
      'REMOTE_ZERO_FILLED',
      `${ev.length} zero bytes where the remote segment's batches should be: a remote object is uploaded whole from a closed segment, never preallocated, so the offsets these bytes held are lost`,
      at,
    )
  if (ev.reason === 'zeros')
    return finding('ZERO_TAIL', `${ev.length} zero bytes at the end (a preallocated or zero-filled tail, no data)`, at)
  if (ev.reason === 'truncated')
    return finding(
      'TRUNCATED_TAIL',
      `the last batch is incomplete: it declares ${ev.declaredSize ?? '?'} bytes, only ${ev.length} remain`,
      at,
    )
  return finding('SHORT_TAIL', `${ev.length} bytes at the end are too few for a batch header (17 bytes)`, at)
}

/** BAD_LENGTH / BAD_MAGIC for a damaged region, saying where reading resumed */
export function corruptFinding(ev: CorruptEvent, file: string): Finding {
  return finding(
    ev.code,
    `${ev.message}; ` +
      (ev.resyncPosition !== undefined
        ? `skipped ${ev.length} bytes, resumed at the next valid batch at position ${ev.resyncPosition}`
        : `${ev.length} bytes from here could not be read`),
    { file, position: ev.position },
  )
}

/** a decoding problem (CRC, codec, record, control record ...) at its byte position */
export function decodeFinding(e: DecodeError, file: string): Finding {
  return finding(e.code, e.message, { file, position: e.position })
}
