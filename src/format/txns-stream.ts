// A whole `txns` or `reconcile` result replayed through a printer's stream, so the library's result and the
// streaming command print through one path.
import type { ReconcileResult, ReconcileStream, TxnsResult } from '../analysis/partition-results.js'
import type { TxnsStream } from './printer.js'

export function replayReconcile(s: ReconcileStream, r: ReconcileResult): void {
  for (const p of r.partitions) s.partition(p)
  s.end(r.filter)
}

export function replayTxns(s: TxnsStream, r: TxnsResult): void {
  for (const p of r.partitions) {
    if (p.kind === 'transactional-ids') {
      s.transactionStates(p)
      continue
    }
    s.timelineStart(p)
    for (const run of p.runs) s.run(run)
    s.timelineEnd(p, p.lane)
  }
  s.end()
}
