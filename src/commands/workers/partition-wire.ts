// What a partition worker posts back (commands/workers/partition-worker.ts, txns-worker.ts): a partition's
// report with its marker-epoch table, and each producer snapshot's coordinator-epoch table, as plain parts (a
// ProducerInts: structured clone keeps the data of an object, not its class), rebuilt on the main thread into
// the same results the sequential scan makes.
import type { PartitionReport } from '../../analysis/partition-report.js'
import { ProducerInts } from '../../analysis/producer-map.js'
import type { ProducerIntsParts } from '../../analysis/producer-map.js'
import type { ScannedPartition } from '../../scan/partition-scan.js'
import type { SnapshotInput } from '../../analysis/partition-input.js'

/** a PartitionReport as posted: its marker-epoch table as plain data (null: not kept) */
export type WireReport = Omit<PartitionReport, 'markerCoordinatorEpochs'> & {
  markerCoordinatorEpochs: ProducerIntsParts | null
}
export type WireSnapshot = Omit<SnapshotInput, 'coordinatorEpochs'> & { coordinatorEpochs: ProducerIntsParts }
export type WireScanned = Omit<ScannedPartition, 'report' | 'snapshots'> & {
  report: WireReport
  snapshots: WireSnapshot[]
}

export function toWireReport(r: PartitionReport): WireReport {
  const epochs = r.markerCoordinatorEpochs
  return { ...r, markerCoordinatorEpochs: epochs instanceof ProducerInts ? epochs.toParts() : null }
}

export function fromWireReport(w: WireReport): PartitionReport {
  const parts = w.markerCoordinatorEpochs
  return { ...w, markerCoordinatorEpochs: parts !== null ? ProducerInts.fromParts(parts) : new ProducerInts() }
}

function toWireSnapshot(s: SnapshotInput): WireSnapshot {
  const epochs = s.coordinatorEpochs
  if (!(epochs instanceof ProducerInts)) throw new Error("a snapshot's coordinator epochs are not a ProducerInts")
  return { ...s, coordinatorEpochs: epochs.toParts() }
}

export function toWireScanned(s: ScannedPartition): WireScanned {
  return { ...s, report: toWireReport(s.report), snapshots: s.snapshots.map(toWireSnapshot) }
}

export function fromWireScanned(w: WireScanned): ScannedPartition {
  return {
    ...w,
    report: fromWireReport(w.report),
    snapshots: w.snapshots.map((s) => ({ ...s, coordinatorEpochs: ProducerInts.fromParts(s.coordinatorEpochs) })),
  }
}
