// JSON printer of reconcile / txns / lso: one JSON document on stdout per run (findings are inside it).
import type {
  LsoHead,
  LsoResult,
  LsoStream,
  PartitionResult,
  ReconcileResult,
  ReconcileStream,
  TransactionStatePartition,
  TxnsResult,
} from '../analysis/partition-results.js'
import type { Lane, TimelineRun } from '../analysis/timeline.js'
import { writeJson } from './json-stream.js'
import { LsoJsonStream } from './lso-json.js'
import { heldInMemory, replayLso } from './lso-stream.js'
import type { HeldWriter, PartitionPrinter, PrinterOutput, TxnsStream } from './printer.js'
import { replayReconcile, replayTxns } from './txns-stream.js'
import { ReconcileJsonStream } from './reconcile-json.js'
import { findingJson, TRANSACTION_SCHEMA_VERSION } from './txn-json.js'
import { timelineHeadJson, transactionalIdJson } from './txn-timeline-json.js'
import { writeRunJson } from './run-json-bytes.js'

export class JsonPartitionPrinter implements PartitionPrinter {
  constructor(private readonly out: PrinterOutput) {}

  reconcile(r: ReconcileResult): void {
    replayReconcile(this.reconcileStream(r.filter !== undefined), r)
  }

  reconcileStream(filtered: boolean): ReconcileStream {
    return new ReconcileJsonStream(this.out.stdout, filtered)
  }

  txns(r: TxnsResult): void {
    replayTxns(this.txnsStream(), r)
  }

  /**
   * One JSON object, `{"schemaVersion":2,"partitions":[...]}`, written in pieces as the runs stream: the same text as
   * JSON.stringify of the whole document (the partition's fields, then runs, lane, findings).
   */
  txnsStream(): TxnsStream {
    const w = this.out.stdout
    let partitions = 0
    let runs = 0
    const next = (): void => {
      w.write(partitions++ === 0 ? `{"schemaVersion":${TRANSACTION_SCHEMA_VERSION},"partitions":[` : ',')
    }
    return {
      timelineStart: (p: PartitionResult) => {
        next()
        runs = 0
        w.write(JSON.stringify(timelineHeadJson(p.report, p.path)).slice(0, -1) + ',"runs":[')
      },
      run: (x: TimelineRun) => {
        writeRunJson(w, x, runs++ === 0)
      },
      timelineEnd: (p: PartitionResult, lane: Lane) => {
        w.write(`],"lane":${JSON.stringify(lane.chars.join(''))},"findings":`)
        writeJson(w, p.report.findings.map(findingJson))
        w.write(`,"omittedFindings":${JSON.stringify(p.report.omittedFindings)}}`)
      },
      transactionStates: (p: TransactionStatePartition) => {
        next()
        writeJson(w, {
          topic: p.report.topic,
          partition: p.report.partition,
          path: p.path,
          transactionalIds: p.states.map(transactionalIdJson),
          findings: p.findings.map(findingJson),
          omittedFindings: { ...p.omittedFindings },
        })
      },
      end: () => {
        w.write(partitions === 0 ? `{"schemaVersion":${TRANSACTION_SCHEMA_VERSION},"partitions":[]}\n` : ']}\n')
      },
    }
  }

  lso(r: LsoResult): void {
    replayLso(this.lsoStream(r, heldInMemory()), r)
  }

  lsoStream(head: LsoHead, held: HeldWriter): LsoStream {
    return new LsoJsonStream(this.out.stdout, held, head)
  }
}
