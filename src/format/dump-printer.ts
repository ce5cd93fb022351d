// The printer seam of the dump, chosen once per run: text (tsdump's own), compat (kafka-dump-log
// 3.9's exact text) or json. The dump commands emit every event (file, batch, record, index entry,
// summary ...) to the DumpPrinter (format/printer.ts) made here and hold no output-format branches.
// A Kafka-version text variant or another output is one more implementation and one more entry below.
import { JsonDumpPrinter } from './dump-json-printer.js'
import type { DumpPrinterConfig } from './dump-text-printer.js'
import { TextDumpPrinter } from './dump-text-printer.js'
import type { DecoderName } from './value-decoders.js'
import type { DumpPrinter, PrinterOutput } from './printer.js'

export type { DumpPrinterConfig } from './dump-text-printer.js'
export type { DumpedFile, DumpPrinter } from './printer.js'

export interface DumpPrinterOptions extends DumpPrinterConfig {
  keyDecoder: DecoderName
  valueDecoder: DecoderName
}

const DUMP_PRINTERS = {
  text: (out: PrinterOutput, o: DumpPrinterOptions) => new TextDumpPrinter(out, o, false),
  compat: (out: PrinterOutput, o: DumpPrinterOptions) => new TextDumpPrinter(out, o, true),
  json: (out: PrinterOutput, o: DumpPrinterOptions) =>
    new JsonDumpPrinter(
      out,
      { printData: o.printData, keyDecoder: o.keyDecoder, valueDecoder: o.valueDecoder },
      o.parser,
      o.plainValues,
    ),
} satisfies Record<string, (out: PrinterOutput, o: DumpPrinterOptions) => DumpPrinter>

export type DumpFormat = keyof typeof DUMP_PRINTERS

export function createDumpPrinter(format: DumpFormat, out: PrinterOutput, o: DumpPrinterOptions): DumpPrinter {
  return DUMP_PRINTERS[format](out, o)
}
