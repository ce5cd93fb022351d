// A partition's history as runs: each transaction is one run (however its batches interleave with
// other producers'), adjacent non-transactional batches of one producer form a plain run, and
// control batches that are not COMMIT/ABORT (LEADER_CHANGE ...) are runs of their own.
import type { BatchRole, Transaction, TxnModel } from './transactions.js'
import type { BatchSummary } from './txn-input.js'

export type TimelineRun =
  | { kind: 'transaction', firstOffset: bigint, txn: Transaction, interleaved: boolean }
  | { kind: 'plain', firstOffset: bigint, lastOffset: bigint, producerId: bigint, producerEpoch: number, records: number, batches: number }
  | { kind: 'control', firstOffset: bigint, typeName: string, producerId: bigint }

/** Runs in order of first offset. */
export function buildTimeline (batches: readonly BatchSummary[], model: TxnModel): TimelineRun[] {
  const runs: TimelineRun[] = model.transactions.map((t) => ({ kind: 'transaction', firstOffset: t.firstOffset, txn: t, interleaved: false }))
  const txnSpan = new Map<Transaction, { firstIndex: number, lastIndex: number, batches: number }>()
  let plain: (TimelineRun & { kind: 'plain' }) | null = null
  for (let i = 0; i < batches.length; i++) {
    const b = batches[i]!
    const role = model.roles[i]
    if (role === undefined) continue
    if (role.kind === 'data' && role.txn === null) {
      if (plain !== null && plain.producerId === b.producerId && plain.producerEpoch === b.producerEpoch) {
        plain.lastOffset = b.lastOffset; plain.records += b.recordsCount; plain.batches++
      } else {
        plain = { kind: 'plain', firstOffset: b.baseOffset, lastOffset: b.lastOffset, producerId: b.producerId, producerEpoch: b.producerEpoch, records: b.recordsCount, batches: 1 }
        runs.push(plain)
      }
      continue
    }
    plain = null // any other batch ends a plain run, so runs read in log order
    if (role.kind === 'control') {
      runs.push({ kind: 'control', firstOffset: b.baseOffset, typeName: role.typeName, producerId: b.producerId })
      continue
    }
    const t = role.txn
    if (t === null) continue
    const s = txnSpan.get(t) ?? { firstIndex: i, lastIndex: i, batches: 0 }
    s.lastIndex = i
    s.batches++
    txnSpan.set(t, s)
  }
  // a transaction is interleaved when other batches sit between its first and last batch (data + marker)
  for (const r of runs) {
    const own = r.kind === 'transaction' ? txnSpan.get(r.txn) : undefined
    if (r.kind === 'transaction' && own !== undefined) r.interleaved = own.lastIndex - own.firstIndex + 1 > own.batches
  }
  return runs.sort((a, b) => (a.firstOffset < b.firstOffset ? -1 : a.firstOffset > b.firstOffset ? 1 : 0))
}

export type LaneChar = 'C' | 'A' | 'O' | '.' | '|' | '+'

const PRIORITY: Record<LaneChar, number> = { O: 5, A: 4, C: 3, '|': 2, '+': 1, '.': 0 }

export function laneChar (role: BatchRole): LaneChar {
  if (role.kind === 'marker') return '|'
  if (role.kind === 'control') return '+'
  if (role.txn === null) return '.'
  return role.txn.outcome === 'COMMIT' ? 'C' : role.txn.outcome === 'ABORT' ? 'A' : 'O'
}

/** One character per batch, or per group of batches when there are more than `width` (most important kind wins). */
export function buildLane (roles: readonly BatchRole[], width: number): { chars: LaneChar[], batchesPerChar: number } {
  const per = Math.max(1, Math.ceil(roles.length / Math.max(1, width)))
  const chars: LaneChar[] = []
  for (let i = 0; i < roles.length; i += per) {
    let best: LaneChar = '.'
    let first = true
    for (let j = i; j < Math.min(roles.length, i + per); j++) {
      const c = laneChar(roles[j]!)
      if (first || PRIORITY[c] > PRIORITY[best]) best = c
      first = false
    }
    chars.push(best)
  }
  return { chars, batchesPerChar: per }
}
