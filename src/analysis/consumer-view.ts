// What a read_committed consumer that trusts the .txnindex files returns (CompletedFetch.nextFetchedRecord),
// batch by batch, and the cross-check of those files against the markers in the log.
import type { FindingSink } from './finding-list.js'
import { finding } from './findings.js'
import type { I64 } from '../bytes/int64.js'
import { i64, toBigInt } from '../bytes/int64.js'
import type { TxnIndexTable } from '../decode/txn-index-table.js'
import type { ExpectedAbortedTxn } from './txn-index-check.js'
import { TxnIndexChecker } from './txn-index-check.js'
import type { BatchFacts } from './batch-facts.js'

export class ConsumerView {
  private readonly checker: TxnIndexChecker
  /** the consumer's queue: txnindex entries by firstOffset (null permutation = file order) */
  private readonly queue: Uint32Array | null
  private qi = 0
  /** firstOffset of the queue's head, null when the queue is empty */
  private qHead: I64 | null
  private readonly abortedPids = new Set<I64>()

  constructor(private readonly table: TxnIndexTable) {
    this.checker = new TxnIndexChecker(table)
    this.queue = table.sortedByFirst()
    this.qHead = table.length > 0 ? i64(table.firstOffset(this.queueAt(0))) : null
  }

  get abortedProducers(): number {
    return this.abortedPids.size
  }

  private queueAt(k: number): number {
    return this.queue === null ? k : this.queue[k]!
  }

  /** the records of `b` the consumer returns */
  step(b: BatchFacts): number {
    const pid = b.producerId
    if (pid >= 0) {
      while (this.qHead !== null && this.qHead <= b.lastOffset) {
        const t = this.table
        this.abortedPids.add(i64(t.producerId(this.queueAt(this.qi++))))
        this.qHead = this.qi < t.length ? i64(t.firstOffset(this.queueAt(this.qi))) : null
      }
      if (b.isControl) {
        if (b.control?.type === 0) this.abortedPids.delete(pid)
        return 0
      }
      if (b.isTransactional && this.abortedPids.size > 0 && this.abortedPids.has(pid)) return 0
    }
    return b.isControl ? 0 : b.recordsCount
  }

  /** an ABORT marker that ends no data (the txnindex may or may not list it) */
  emptyAbort(producerId: I64, markerOffset: I64): void {
    this.checker.emptyAbort(toBigInt(producerId), toBigInt(markerOffset))
  }

  /** a transaction the markers say was aborted: the txnindex should list it */
  abortedTxn(x: ExpectedAbortedTxn): void {
    this.checker.abortedTxn(x)
  }

  /** the txnindex findings, and CONSUMER_VIEW_DIFFERS when the consumer's count is not the markers' */
  findings(
    firstScanned: I64,
    leo: I64,
    consumerCount: number,
    readCommitted: number,
    lso: I64,
    out: FindingSink,
  ): void {
    this.checker.findings(toBigInt(firstScanned), toBigInt(leo), out)
    if (consumerCount !== readCommitted) {
      out.push(
        finding(
          'CONSUMER_VIEW_DIFFERS',
          `markers say read_committed consumers should read ${readCommitted} records below the LSO ${lso}; trusting .txnindex as consumers do, they read ${consumerCount}`,
          { firstOffset: toBigInt(firstScanned), lastOffset: toBigInt(lso) },
        ),
      )
    }
  }
}
