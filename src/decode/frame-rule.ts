// The one rule for whether an entry header can be right, shared by the framer (frame-scanner.ts), the
// resync search (resync.ts) and the parallel dump's cut walk (frame-walk.ts).
import * as L from './layout.js'

/** Why an entry header cannot be right (undefined: it can); the one framing rule (the framer, resync and frame-walk.ts apply it). */
export function frameProblem(
  size: number,
  magic: number,
  total: number,
  maxBatch: number,
): { code: 'BAD_LENGTH' | 'BAD_MAGIC'; message: string; overLimit?: true } | undefined {
  if (size < L.MIN_RECORD_OVERHEAD) {
    return {
      code: 'BAD_LENGTH',
      message: `record size ${size} is smaller than the minimum record overhead (${L.MIN_RECORD_OVERHEAD})`,
    }
  }
  if (magic < 0 || magic > 2) {
    return { code: 'BAD_MAGIC', message: `magic ${magic} is not 0, 1 or 2` }
  }
  if (magic === 2 && size < L.MIN_V2_BATCH_LENGTH) {
    return {
      code: 'BAD_LENGTH',
      message: `batchLength ${size} is smaller than the v2 batch header (${L.MIN_V2_BATCH_LENGTH})`,
    }
  }
  if (total > maxBatch) {
    return {
      code: 'BAD_LENGTH',
      message: `entry size ${total} exceeds the limit of ${maxBatch} bytes (--max-batch-bytes)`,
      overLimit: true,
    }
  }
  return undefined
}
