// The fast feed of the partition scan. partition-scan.ts frames every segment with scanFrames (the one
// framer) and offers each frame here first. This handles what healthy segments hold: v2 headers that pass
// readLog's plausibility check (BatchView.headerPlausible), COMMIT/ABORT markers of the shape brokers
// write and empty control batches. It reads the header fields from the window as numbers through one
// BatchView (canonical I64) and allocates nothing per batch. Any other frame (legacy entries, unusual
// control records, implausible headers) it declines, without feeding anything, and readFrame (the general
// path) makes the event that partition-scan's feed passes on, with its findings. So the two cannot frame
// differently, and test/commands/txn-fast-scan.test.ts checks they give the same facts.
import { i64Add } from '../bytes/int64.js'
import { crc32cRange } from '../bytes/crc32c.js'
import type { BatchFacts } from '../analysis/batch-facts.js'
import { plausibleHeader } from '../decode/batch-view.js'
import type { EndTxnMarkerFacts } from '../decode/control-fast.js'
import { readEndTxnMarkerFast } from '../decode/control-fast.js'
import type { Frame } from '../decode/frame.js'
import * as L from '../decode/layout.js'

/** the partition scan's read window: headers of large batches are read alone (scanFrames headersOnly) */
export const PARTITION_SCAN_WINDOW = 256 * 1024
const CONTROL_TYPE_NAMES = ['ABORT', 'COMMIT']

export class FastBatchFeed {
  private readonly marker: EndTxnMarkerFacts = { type: 0, keyVersion: 0, coordinatorEpoch: 0 }
  /** the control info handed to the analyzer (which keeps nothing of it) */
  private readonly control = { type: 0, typeName: 'ABORT', coordinatorEpoch: 0 }

  constructor(private readonly s: BatchFacts) {}

  /**
   * Fill the facts with `f` when it is an ordinary v2 batch; false (the facts are then unspecified) for any other
   * frame. The caller feeds the analyzer: kept out of this method, the analyzer is not inlined into it, and V8's
   * inlining budget goes to the header getters (node --cpu-prof showed them as calls of their own while the analyzer
   * was inlined here).
   */
  read(v: Frame, file: string): boolean {
    if (v.magic < 2) return false
    const attributes = v.attributes
    const count = v.recordsCount
    const delta = v.lastOffsetDelta
    if (!plausibleHeader(count, delta, attributes, v.sizeInBytes)) return false
    const s = this.s
    const isControl = (attributes & L.CONTROL_FLAG_MASK) !== 0
    // a control batch decides transactions: one whose CRC fails is not trusted (the general path reports it)
    if (
      isControl &&
      (!v.complete || crc32cRange(v.window, v.o + L.ATTRIBUTES_OFFSET, v.o + v.sizeInBytes) !== v.storedCrc)
    )
      return false
    if (!isControl) {
      s.control = undefined
    } else if (count === 0) {
      s.control = null // compaction can leave empty control batches (KAFKA-7467); readLog reports no problem
    } else {
      if (!readEndTxnMarkerFast(v.window, v.o, v.o + v.sizeInBytes, this.marker)) return false
      this.control.type = this.marker.type
      this.control.typeName = CONTROL_TYPE_NAMES[this.marker.type]!
      this.control.coordinatorEpoch = this.marker.coordinatorEpoch
      s.control = this.control
    }
    s.baseOffset = v.int64(L.OFFSET_OFFSET)
    s.lastOffset = i64Add(s.baseOffset, delta)
    s.recordsCount = count
    s.producerId = v.int64(L.PRODUCER_ID_OFFSET)
    s.producerEpoch = v.producerEpoch
    s.isTransactional = (attributes & L.TRANSACTIONAL_FLAG_MASK) !== 0
    s.isControl = isControl
    s.baseTimestamp = v.int64(L.BASE_TIMESTAMP_OFFSET)
    s.maxTimestamp = v.int64(L.MAX_TIMESTAMP_OFFSET)
    s.legacy = undefined
    s.file = file
    s.position = v.position
    return true
  }
}
