// A partition's history as runs: each transaction is one run (however its batches interleave with
// other producers'), adjacent non-transactional batches of one producer form a plain run, and
// control batches that are not COMMIT/ABORT (LEADER_CHANGE ...) are runs of their own.
// PartitionAnalyzer collects them while streaming (only when asked: `tsdump txns`); the run list is
// as long as the output. The lane keeps 4 bytes per batch (its transaction or kind), resolved at the end.
import type { Transaction } from './transactions.js'

export type TimelineRun =
  | { kind: 'transaction', firstOffset: bigint, txn: Transaction, interleaved: boolean }
  | { kind: 'plain', firstOffset: bigint, lastOffset: bigint, producerId: bigint, producerEpoch: number, records: number, batches: number }
  | { kind: 'control', firstOffset: bigint, typeName: string, producerId: bigint }

/** lane codes: plain data, COMMIT/ABORT marker, other control batch; a transaction's data is LANE_TXN + seq */
export const LANE_PLAIN = 0
export const LANE_MARKER = 1
export const LANE_CONTROL = 2
export const LANE_TXN = 3

export interface Timeline {
  /** in order of first offset */
  runs: TimelineRun[]
  /** one code per batch, in log order */
  laneCodes: Uint32Array
  /** every transaction, by seq */
  transactions: Transaction[]
}

export type LaneChar = 'C' | 'A' | 'O' | '.' | '|' | '+'

const PRIORITY: Record<LaneChar, number> = { O: 5, A: 4, C: 3, '|': 2, '+': 1, '.': 0 }

function laneChar (code: number, transactions: readonly Transaction[]): LaneChar {
  if (code === LANE_PLAIN) return '.'
  if (code === LANE_MARKER) return '|'
  if (code === LANE_CONTROL) return '+'
  const o = transactions[code - LANE_TXN]?.outcome ?? null
  return o === 'COMMIT' ? 'C' : o === 'ABORT' ? 'A' : 'O'
}

/** One character per batch, or per group of batches when there are more than `width` (most important kind wins). */
export function buildLane (t: Timeline, width: number): { chars: LaneChar[], batchesPerChar: number } {
  const codes = t.laneCodes
  const per = Math.max(1, Math.ceil(codes.length / Math.max(1, width)))
  const chars: LaneChar[] = []
  for (let i = 0; i < codes.length; i += per) {
    let best: LaneChar = '.'
    let first = true
    for (let j = i; j < Math.min(codes.length, i + per); j++) {
      const c = laneChar(codes[j]!, t.transactions)
      if (first || PRIORITY[c] > PRIORITY[best]) best = c
      first = false
    }
    chars.push(best)
  }
  return { chars, batchesPerChar: per }
}
