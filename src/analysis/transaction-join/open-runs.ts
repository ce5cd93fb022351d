// The hanging rule (analysis/hanging.ts) on the runs of joined transactions that have no marker: the same verdict,
// age and findings `lso`, `cleanup` and `report` give for that partition.
import { hangingFindings, judgeOpenTransaction } from '../hanging.js'
import type { TransactionalIdState } from '../transactional-id-state.js'
import type { JoinedTransaction } from './types.js'

/** Judges every run without a marker (`run.verdict`) and adds TXN_HANGING / TXN_COORDINATOR_OVERDUE to its transaction. */
export function judgeOpenRuns(
  all: readonly JoinedTransaction[],
  states: readonly TransactionalIdState[],
  nowMs: number,
  maxTransactionTimeoutMs: number,
): void {
  for (const t of all) {
    // a transaction damage made unknown is not judged
    if (t.outcome === 'unknown') continue
    for (const r of t.runs) {
      if (r.marker !== null || r.lastDataOffset === null) continue
      const label = `${r.topic}-${r.partition}`
      const facts = {
        producerId: r.producerId,
        producerEpoch: r.producerEpoch,
        firstOffset: r.firstOffset,
        lastDataOffset: r.lastDataOffset,
        lastTimestamp: r.lastTimestamp,
        state: 'open',
      }
      r.verdict = judgeOpenTransaction(facts, label, nowMs, maxTransactionTimeoutMs, states)
      for (const f of hangingFindings(facts, r.verdict, label, nowMs, maxTransactionTimeoutMs))
        t.findings.push({ ...f, file: r.file, position: r.position })
    }
  }
}
