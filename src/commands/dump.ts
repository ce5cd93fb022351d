// `tsdump [options] <path...>`: the kafka-dump-log compatible dump of every file named or found.
import type { CliContext } from './context.js'
import { discover } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import type { DumpInternals, DumpOptions } from './dump-options.js'
import { dumpLogFile } from './dump-log.js'
import type { RunState } from './dump-log.js'
import { dumpOffsetIndex, dumpTimeIndex, newIndexRunState } from './dump-index.js'
import type { IndexRunState } from './dump-index.js'
import { dumpProducerSnapshot, dumpTxnIndex } from './dump-other.js'
import { EXIT_USAGE, finding } from '../analysis/findings.js'
import { FindingLog } from './findings.js'
import type { PayloadParserFn } from '../format/payload-parsers.js'
import { makeDumpPrinter, pickParser } from './dump-setup.js'
import { parallelBody } from './parallel-dump.js'

export async function runDump (opts: DumpOptions, ctx: CliContext, internals: DumpInternals = {}): Promise<number> {
  const log = new FindingLog(ctx, opts.json)
  const picked = await pickParser(opts, log)
  if (picked === undefined) return EXIT_USAGE
  let current = '<none>'
  const parser = reportingFindings(picked, log, () => current)
  // the one place the output format is chosen (commands/dump-setup.ts; dump workers make theirs there too)
  const printer = makeDumpPrinter(opts, ctx, ctx.colorLevel, parser, internals)
  const found = discover(opts.paths)
  for (const p of found.problems) log.unusable(p.path, p.message)
  for (const s of found.skipped) printer.skipped(s.path, s.reason)
  const state: RunState & IndexRunState = { nonConsecutive: new Map(), ...newIndexRunState() }
  for (const file of found.files) {
    if (ctx.stdout.closed) break
    current = file.path
    printer.fileStart(file)
    try {
      switch (file.kind) {
        case 'log':
        case 'checkpoint': {
          // --threads: large files are dumped by worker threads (commands/parallel-dump.ts), the same bytes
          printer.summary(await dumpLogFile(file, opts, ctx, log, printer, state, parallelBody(file, opts, ctx, log, internals)))
          break
        }
        case 'index': dumpOffsetIndex(file, opts, printer, log, state); break
        case 'timeindex': dumpTimeIndex(file, opts, printer, log, state); break
        case 'txnindex': dumpTxnIndex(file, opts, printer, log); break
        case 'snapshot': dumpProducerSnapshot(file, opts, printer, log); break
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      if (e instanceof InputError) log.unusable(e.file, e.message, e.code, e.position)
      else if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code)) log.unusable(file.path, `${err.code}: ${err.message}`)
      else throw e
    }
  }
  printer.end(state)
  ctx.stdout.flush()
  return log.exitCode
}

/** an internal-topic record the decoder cannot read (unknown type or version, malformed) is a finding too */
function reportingFindings (parser: PayloadParserFn, log: FindingLog, file: () => string): PayloadParserFn {
  return (k, v, o) => {
    const p = parser(k, v, o)
    if (p.finding !== undefined) log.add(finding(p.finding.code, `offset ${o}: ${p.finding.message}`, { file: file(), position: p.finding.position }))
    return p
  }
}
