// The printer interfaces: what a command hands its output to. Implementations: partition-text.ts,
// partition-json.ts (chosen in partition-printer.ts).
import type { LsoResult, ReconcileResult, TxnsResult } from '../analysis/partition-results.js'
import type { Writer } from './writer.js'

export interface PartitionPrinter {
  reconcile (r: ReconcileResult): void
  txns (r: TxnsResult): void
  lso (r: LsoResult): void
}

/** where a printer writes: results on stdout, findings on stderr */
export interface PrinterOutput { stdout: Writer, stderr: Writer }

export type ColorLevel = 0 | 1 | 2 | 3
