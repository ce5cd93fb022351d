// `tsdump remote --json`: one object, `schemaVersion` first; 64-bit values as numbers while exact (json-int64.ts).
import type { RemotePartitionInventory, RemoteResult } from '../analysis/remote-inventory.js'
import { JSON_SCHEMA_VERSION } from './dump-json.js'
import { toJson } from './json-int64.js'
import type { PrinterOutput } from './printer.js'

/**
 * The same object written a partition at a time as `partitions` yields them, so that a partition's segment rows
 * need not outlive it (commands/remote.ts joins each when it is asked for).
 */
export function writeRemoteJson(
  r: Omit<RemoteResult, 'partitions'>,
  partitions: Iterable<RemotePartitionInventory>,
  out: PrinterOutput,
): void {
  const head = toJson({
    schemaVersion: JSON_SCHEMA_VERSION,
    storage: r.storage,
    metadataFrom: r.metadataFrom,
    findings: r.findings,
    partitions: [],
  })
  // the head ends with `"partitions":[]}`: the partitions go between the brackets
  out.stdout.write(head.slice(0, -2))
  let first = true
  for (const p of partitions) {
    out.stdout.write((first ? '' : ',') + toJson(p))
    first = false
  }
  out.stdout.write(']}\n')
}
