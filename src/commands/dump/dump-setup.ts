// The dump's printer and payload parser, made from the options in one place: the main thread and each
// dump worker (commands/workers/dump-worker.ts) must print the same text from the same options.
import type { DumpInternals, DumpOptions } from './dump-options.js'
import type { PayloadParserFn } from '../../format/payload-parsers.js'
import { decoderParser, getPayloadParser } from '../../format/payload-parsers.js'
import { createDumpPrinter } from '../../format/dump-printer.js'
import { textVariant } from '../../format/kafka-versions.js'
import type { DumpPrinter } from '../../format/dump-printer.js'
import type { ColorLevel, PrinterOutput } from '../../format/printer.js'

export function makeDumpPrinter (opts: DumpOptions, out: PrinterOutput, color: ColorLevel, parser: PayloadParserFn, internals: DumpInternals): DumpPrinter {
  return createDumpPrinter(opts.json ? 'json' : opts.compat ? 'compat' : 'text', out, {
    variant: textVariant(opts.kafkaVersion), summary: opts.summary, printData: opts.printData, skipRecordMetadata: opts.skipRecordMetadata, color, parser,
    keyDecoder: opts.keyDecoder, valueDecoder: opts.valueDecoder,
    plainValues: opts.parser === 'default' && opts.valueDecoder === 'string',
    rawStrings: opts.parser === 'default' && opts.keyDecoder === 'string' && opts.valueDecoder === 'string' && internals.fastPaths !== false,
  })
}

/** the payload parser of the options; undefined, with `unavailable` told why, when this build lacks it */
export async function pickParser (opts: DumpOptions, unavailable: (message: string) => void): Promise<PayloadParserFn | undefined> {
  if (opts.parser === 'default') return decoderParser(opts.keyDecoder, opts.valueDecoder)
  const p = await getPayloadParser(opts.parser, opts.kafkaVersion)
  if (p === undefined) unavailable(`the ${opts.parser} decoder is not available in this build`)
  return p
}
