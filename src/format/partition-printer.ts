// The printer seam of the partition commands (reconcile, txns, lso). A command computes a plain result
// (analysis/partition-results.ts) and hands it to the printer chosen once here; commands hold no
// output-format branches. A new output (an HTML report, a Kafka-version text variant) is one more
// class implementing PartitionPrinter and one more entry in PRINTERS.
import { JsonPartitionPrinter } from './partition-json.js'
import { TextPartitionPrinter } from './partition-text.js'
import type { ColorLevel, PartitionPrinter, PrinterOutput } from './printer.js'

export type { ColorLevel, PartitionPrinter, PrinterOutput, TxnsStream } from './printer.js'

/** how the text is laid out: `wide` prints every table column, past 80 characters if need be */
export interface PartitionLayout {
  wide: boolean
}

const PRINTERS = {
  text: (out: PrinterOutput, color: ColorLevel, layout: PartitionLayout) =>
    new TextPartitionPrinter(out, color, layout.wide),
  json: (out: PrinterOutput, _color: ColorLevel, _layout: PartitionLayout) => new JsonPartitionPrinter(out),
} satisfies Record<string, (out: PrinterOutput, color: ColorLevel, layout: PartitionLayout) => PartitionPrinter>

export type PartitionFormat = keyof typeof PRINTERS

export function createPartitionPrinter(
  format: PartitionFormat,
  out: PrinterOutput,
  color: ColorLevel,
  layout: PartitionLayout = { wide: false },
): PartitionPrinter {
  return PRINTERS[format](out, color, layout)
}
