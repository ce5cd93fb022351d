// The dump's printer and payload parser, made from the options in one place: the main thread and each
// dump worker (commands/dump-worker.ts) must print the same text from the same options.
import type { FindingLog } from './findings.js'
import type { DumpInternals, DumpOptions } from './dump-options.js'
import type { PayloadParserFn } from '../format/payload-parsers.js'
import { decoderParser, getPayloadParser } from '../format/payload-parsers.js'
import { createDumpPrinter } from '../format/dump-printer.js'
import type { DumpPrinter } from '../format/dump-printer.js'
import type { ColorLevel, PrinterOutput } from '../format/printer.js'

export function makeDumpPrinter (opts: DumpOptions, out: PrinterOutput, color: ColorLevel, parser: PayloadParserFn, internals: DumpInternals): DumpPrinter {
  return createDumpPrinter(opts.json ? 'json' : opts.compat ? 'compat' : 'text', out, {
    summary: opts.summary, printData: opts.printData, skipRecordMetadata: opts.skipRecordMetadata, color, parser,
    keyDecoder: opts.keyDecoder, valueDecoder: opts.valueDecoder,
    rawStrings: opts.parser === 'default' && opts.keyDecoder === 'string' && opts.valueDecoder === 'string' && internals.fastPaths !== false,
  })
}

export async function pickParser (opts: DumpOptions, log: FindingLog): Promise<PayloadParserFn | undefined> {
  if (opts.parser === 'default') return decoderParser(opts.keyDecoder, opts.valueDecoder)
  const p = await getPayloadParser(opts.parser)
  if (p === undefined) log.unusable('<options>', `the ${opts.parser} decoder is not available in this build`)
  return p
}
