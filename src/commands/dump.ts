// `tsdump [options] <path...>`: the kafka-dump-log compatible dump of every file named or found.
import { Chalk } from 'chalk'
import type { CliContext } from '../cli/context.js'
import { discover } from '../io/discover.js'
import { STDIN_PATH, stdinFile, stdinProblem } from '../io/stdin-source.js'
import { toJson } from '../format/json-int64.js'
import type { PayloadParserFn } from '../format/payload-parsers.js'
import { decoderParser, getPayloadParser } from '../format/payload-parsers.js'
import type { DumpOptions } from './dump-options.js'
import { dumpLogFile } from './dump-log.js'
import type { RunState } from './dump-log.js'
import { dumpOffsetIndex, dumpTimeIndex, newIndexRunState } from './dump-index.js'
import type { IndexRunState } from './dump-index.js'
import { dumpProducerSnapshot, dumpTxnIndex } from './dump-other.js'
import { EXIT_USAGE, FindingLog } from './findings.js'
import { formatSummary, summaryJson } from './log-summary.js'

export async function runDump (opts: DumpOptions, ctx: CliContext): Promise<number> {
  const log = new FindingLog(ctx, opts.json)
  const chalk = new Chalk({ level: opts.compat || opts.json ? 0 : ctx.colorLevel })
  const parser = await pickParser(opts, log)
  if (parser === undefined) return EXIT_USAGE
  // `-` is standard input, read as one .log segment where it stands first or last
  const found = discover(opts.paths.filter((p) => p !== STDIN_PATH))
  if (opts.paths.includes(STDIN_PATH)) {
    const why = stdinProblem(opts.paths, ctx.stdinIsTTY === true)
    if (why !== undefined) log.unusable(STDIN_PATH, why)
    else if (opts.paths[0] === STDIN_PATH) found.files.unshift(stdinFile())
    else found.files.push(stdinFile())
  }
  for (const p of found.problems) log.unusable(p.path, p.message)
  for (const s of found.skipped) {
    if (opts.json) ctx.stdout.write(toJson({ type: 'skipped', file: s.path, reason: s.reason }) + '\n')
    // kafka-dump-log's wording for files it does not handle; the metadata files every partition
    // directory has are expected there and not worth a line each
    if (!s.reason.startsWith('broker metadata file')) ctx.stderr.write(`Ignoring ${s.path}: ${s.reason}\n`)
  }
  const state: RunState & IndexRunState = { nonConsecutive: new Map(), ...newIndexRunState() }
  for (const file of found.files) {
    if (ctx.stdout.closed) break
    if (opts.json) ctx.stdout.write(toJson({ type: 'file', file: file.path, kind: file.kind, baseOffset: file.baseOffset }) + '\n')
    else ctx.stdout.write(`Dumping ${file.path}\n`)
    try {
      switch (file.kind) {
        case 'log':
        case 'checkpoint': {
          const s = dumpLogFile(file, opts, ctx, log, chalk, parser, state)
          if (opts.json) ctx.stdout.write(toJson(summaryJson(s)) + '\n')
          else if (opts.summary && !opts.compat) ctx.stdout.write(chalk.dim(formatSummary(s)) + '\n')
          break
        }
        case 'index': dumpOffsetIndex(file, opts, ctx, log, state); break
        case 'timeindex': dumpTimeIndex(file, opts, ctx, log, state); break
        case 'txnindex': dumpTxnIndex(file, opts, ctx, log); break
        case 'snapshot': dumpProducerSnapshot(file, opts, ctx, log); break
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code)) log.unusable(file.path, `${err.code}: ${err.message}`)
      else throw e
    }
  }
  if (opts.compat) printKafkaDiagnostics(ctx, state)
  else if (state.nonConsecutive.size > 0 && !opts.json) printNonConsecutive(ctx, state)
  ctx.stdout.flush()
  return log.exitCode
}

async function pickParser (opts: DumpOptions, log: FindingLog): Promise<PayloadParserFn | undefined> {
  if (opts.parser === 'default') return decoderParser(opts.keyDecoder, opts.valueDecoder)
  const p = await getPayloadParser(opts.parser)
  if (p === undefined) log.unusable('<options>', `the ${opts.parser} decoder is not available in this build`)
  return p
}

// The stderr blocks kafka-dump-log prints after all files (DumpLogSegments.main).
function printKafkaDiagnostics (ctx: CliContext, s: RunState & IndexRunState): void {
  const e = ctx.stderr
  for (const [f, l] of s.indexMismatches) {
    e.write(`Mismatches in :${f}\n`)
    for (const [a, b] of l) e.write(`  Index offset: ${a}, log offset: ${b}\n`)
  }
  for (const [f, l] of s.timeMismatches) {
    e.write(`Found timestamp mismatch in :${f}\n`)
    for (const [a, b] of l) e.write(`  Index timestamp: ${a}, log timestamp: ${b}\n`)
  }
  for (const [f, l] of s.timeOutOfOrder) {
    e.write(`Found out of order timestamp in :${f}\n`)
    for (const [a, b] of l) e.write(`  Index timestamp: ${a}, Previously indexed timestamp: ${b}\n`)
  }
  for (const l of s.timeNotFound.values()) {
    e.write('The following indexed offsets are not found in the log.\n')
    for (const [a, b] of l) e.write(`Indexed offset: ${a}, found log offset: ${b}\n`)
  }
  printNonConsecutive(ctx, s)
}

function printNonConsecutive (ctx: CliContext, s: RunState): void {
  for (const [f, l] of s.nonConsecutive) {
    ctx.stderr.write(`Non-consecutive offsets in ${f}\n`)
    for (const [a, b] of l) ctx.stderr.write(`  ${a} is followed by ${b}\n`)
  }
}

