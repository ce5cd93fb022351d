// The printer seam of the partition commands (reconcile, txns, lso). A command computes a plain result
// (analysis/partition-results.ts) and hands it to the printer chosen once here; commands hold no
// output-format branches. A new output (an HTML report, a Kafka-version text variant) is one more
// class implementing PartitionPrinter and one more entry in PRINTERS.
import { JsonPartitionPrinter } from './partition-json.js'
import { TextPartitionPrinter } from './partition-text.js'
import type { PartitionPrinter, PrinterOutput } from './printer.js'
import type { PrintOptions } from './print-options.js'

export type { ColorLevel, PartitionPrinter, PrinterOutput, TxnsStream } from './printer.js'

// the same arguments as every other printer (format/print-options.ts): where to write, colour and --wide
const PRINTERS = {
  text: (out: PrinterOutput, opts: PrintOptions) => new TextPartitionPrinter(out, opts.colorLevel, opts.wide),
  json: (out: PrinterOutput, _opts: PrintOptions) => new JsonPartitionPrinter(out),
} satisfies Record<string, (out: PrinterOutput, opts: PrintOptions) => PartitionPrinter>

export type PartitionFormat = keyof typeof PRINTERS

export function createPartitionPrinter(
  format: PartitionFormat,
  out: PrinterOutput,
  opts: PrintOptions,
): PartitionPrinter {
  return PRINTERS[format](out, opts)
}
