// The dump's printer and payload parser, made from the options in one place: the main thread and each
// dump worker (commands/workers/dump-worker.ts) must print the same text from the same options.
import type { DumpInternals, DumpOptions } from './dump-options.js'
import type { PayloadParserFn } from '../../format/payload-parsers.js'
import { decoderParser, getPayloadParser } from '../../format/payload-parsers.js'
import { createDumpPrinter } from '../../format/dump-printer.js'
import { textVariant } from '../../format/kafka-versions.js'
import type { DumpPrinter } from '../../format/dump-printer.js'
import type { ColorLevel, PrinterOutput } from '../../format/printer.js'
import { finding } from '../../analysis/findings.js'
import type { FindingLog } from './finding-log.js'

export function makeDumpPrinter(
  opts: DumpOptions,
  out: PrinterOutput,
  color: ColorLevel,
  parser: PayloadParserFn,
  internals: DumpInternals,
): DumpPrinter {
  return createDumpPrinter(opts.json ? 'json' : opts.compat ? 'compat' : 'text', out, {
    variant: textVariant(opts.kafkaVersion),
    summary: opts.summary,
    printData: opts.printData,
    skipRecordMetadata: opts.skipRecordMetadata,
    color,
    parser,
    keyDecoder: opts.keyDecoder,
    valueDecoder: opts.valueDecoder,
    plainValues: opts.parser === 'default' && opts.valueDecoder === 'string',
    rawStrings:
      opts.parser === 'default' &&
      opts.keyDecoder === 'string' &&
      opts.valueDecoder === 'string' &&
      internals.fastPaths !== false,
  })
}

/** the payload parser of the options; undefined, with `unavailable` told why, when this build lacks it */
export async function pickParser(
  opts: DumpOptions,
  unavailable: (message: string) => void,
): Promise<PayloadParserFn | undefined> {
  if (opts.parser === 'default') return decoderParser(opts.keyDecoder, opts.valueDecoder)
  const p = await getPayloadParser(opts.parser, opts.kafkaVersion)
  if (p === undefined) unavailable(`the ${opts.parser} decoder is not available in this build`)
  return p
}

/**
 * The parser that also reports what the internal-topic decoders find (a record that does not decode) to the
 * current finding log, pointing at the record's batch; the main thread and each dump worker use it alike.
 */
export function reportingFindings(
  parser: PayloadParserFn,
  log: () => FindingLog | undefined,
  file: () => string,
): PayloadParserFn {
  return (k, v, o, at) => {
    const p = parser(k, v, o, at)
    if (p.finding !== undefined) {
      // where in the value, when the decoder knows it, goes into the words
      const inValue = p.finding.position >= 0 ? ` (value byte ${p.finding.position})` : ''
      log()?.add(
        finding(p.finding.code, `offset ${o}: ${p.finding.message}${inValue}`, {
          file: file(),
          position: at,
          firstOffset: o,
          lastOffset: o,
        }),
      )
    }
    return p
  }
}
