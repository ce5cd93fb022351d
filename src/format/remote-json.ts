// `tsdump remote --json`: one object, `schemaVersion` first; 64-bit values as numbers while exact (json-int64.ts).
import type { RemoteResult } from '../analysis/remote-inventory.js'
import { JSON_SCHEMA_VERSION } from './dump-json.js'
import { toJson } from './json-int64.js'
import type { PrinterOutput } from './printer.js'
import type { PrintOptions } from './print-options.js'

/** colour and width do not apply to JSON; the options are the printers' one shape (format/print-options.ts) */
export function printRemoteJson(r: RemoteResult, out: PrinterOutput, _opts: PrintOptions): void {
  out.stdout.write(
    toJson({
      schemaVersion: JSON_SCHEMA_VERSION,
      storage: r.storage,
      metadataFrom: r.metadataFrom,
      findings: r.findings,
      partitions: r.partitions,
    }) + '\n',
  )
}
