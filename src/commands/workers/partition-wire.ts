// What a partition worker posts back (commands/workers/partition-worker.ts, txns-worker.ts): a partition's
// report with its marker-epoch table as plain parts (a ProducerInts: structured clone keeps the data of an
// object, not its class), rebuilt on the main thread into the same report the sequential scan makes.
import type { PartitionReport } from '../../analysis/partition-report.js'
import { ProducerInts } from '../../analysis/producer-map.js'
import type { ProducerIntsParts } from '../../analysis/producer-map.js'
import type { ScannedPartition } from '../../scan/partition-scan.js'

/** a PartitionReport as posted: its marker-epoch table as plain data (null: not kept) */
export type WireReport = Omit<PartitionReport, 'markerCoordinatorEpochs'> & { markerCoordinatorEpochs: ProducerIntsParts | null }
export type WireScanned = Omit<ScannedPartition, 'report'> & { report: WireReport }

export function toWireReport (r: PartitionReport): WireReport {
  const epochs = r.markerCoordinatorEpochs
  return { ...r, markerCoordinatorEpochs: epochs instanceof ProducerInts ? epochs.toParts() : null }
}

export function fromWireReport (w: WireReport): PartitionReport {
  const parts = w.markerCoordinatorEpochs
  return { ...w, markerCoordinatorEpochs: parts !== null ? ProducerInts.fromParts(parts) : new ProducerInts() }
}

export function toWireScanned (s: ScannedPartition): WireScanned { return { ...s, report: toWireReport(s.report) } }

export function fromWireScanned (w: WireScanned): ScannedPartition { return { ...w, report: fromWireReport(w.report) } }
