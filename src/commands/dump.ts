// `tsdump [options] <path...>`: the kafka-dump-log compatible dump of every file named or found.
import type { CommandContext } from './context.js'
import type { KafkaFile } from '../io/discover.js'
import { RemoteDumpFiles } from './dump/remote-files.js'
import { discover } from '../io/discover.js'
import { InputError } from '../io/input-error.js'
import { STDIN_PATH, stdinFile, stdinProblem } from '../io/stdin-source.js'
import type { DumpInternals, DumpOptions } from './dump/dump-options.js'
import { dumpLogFile } from './dump/dump-log.js'
import { dumpLogRange, releaseDumpWindow, viewEnd } from './dump/dump-range.js'
import type { LogBody, RunState } from './dump/dump-log.js'
import { companion, dumpOffsetIndex, newIndexRunState } from './dump/dump-index.js'
import { BatchPositions } from './dump/batch-positions.js'
import type { EpochRuns } from './dump/epoch-runs.js'
import { TimeIndexStamps } from './dump/time-stamps.js'
import { dumpTimeIndex } from './dump/dump-time-index.js'
import type { IndexRunState } from './dump/dump-index.js'
import { dumpProducerSnapshot, dumpTxnIndex } from './dump/dump-other.js'
import { dumpPartitionFile, epochRunsFor } from './dump/dump-partition-files.js'
import type { TopicIds } from './dump/dump-partition-files.js'
import { EXIT_FINDINGS, EXIT_USAGE, finding } from '../analysis/findings.js'
import { FindingLog, partitionOf } from './dump/finding-log.js'
import type { PayloadParserFn } from '../format/payload-parsers.js'
import type { DumpPrinter } from '../format/printer.js'
import { makeDumpPrinter, pickParser, reportingFindings } from './dump/dump-setup.js'
import { parallelBody } from './workers/dump-pool.js'
import { RangeFilter } from '../analysis/range-filter.js'
import type { Seek } from './dump/seek.js'
import { seekPosition, segmentsOutOfRange } from './dump/seek.js'
import * as path from 'node:path'
import type { BatchGate } from './dump/isolation.js'
import { IsolationGates } from './dump/isolation.js'
import type { RangeSpec } from '../analysis/range-filter.js'
import { needsIdResolved, resolveFilter } from '../scan/filter-resolve.js'
import { HeldOutput } from './dump/held-output.js'
import { sizeOf } from '../io/dir-listing.js'
import { YoungGenerationHold } from '../io/young-generation.js'
import type { FrameTap } from './dump/id-first.js'
import { IdFirst } from './dump/id-first.js'

/**
 * The dump of every file under `given.paths`; returns the exit code.
 * @throws TsdumpError NOT_FOUND for a filter's transactional id with no record (before anything is written)
 */
export async function runDump(
  given: DumpOptions,
  command: CommandContext,
  internals: DumpInternals = {},
): Promise<number> {
  // --transactional-id: nothing is written before the id is resolved, and the coordinator partitions that give its
  // producer ids are dumped in that read, their output held until their turn (commands/dump/id-first.ts)
  const held = needsIdResolved(given.filter) ? new HeldOutput(command) : undefined
  const closing: Array<() => void> = []
  const young = new YoungGenerationHold()
  try {
    return await dumpAll({ ...given }, held?.ctx ?? command, internals, held, closing, young)
  } finally {
    held?.close()
    for (const c of closing) c()
    releaseDumpWindow()
    young.release()
  }
}

async function dumpAll(
  opts: DumpOptions,
  ctx: CommandContext,
  internals: DumpInternals,
  held: HeldOutput | undefined,
  closing: Array<() => void>,
  young: YoungGenerationHold,
): Promise<number> {
  // the one place the output format is chosen (commands/dump/dump-setup.ts; dump workers make theirs there too);
  // findings are printer events, so the printer comes first and the payload parser is bound to it after
  let parser: PayloadParserFn | undefined
  held?.hold() // what is said before the first file (a JSON header) waits for the id too
  const printer = makeDumpPrinter(opts, ctx, ctx.colorLevel, (k, v, o, at) => parser!(k, v, o, at), internals)
  const log = new FindingLog(printer)
  const picked = await pickParser(opts, (m) => {
    log.unusable('<options>', m)
  })
  if (picked === undefined) {
    log.endFile()
    if (held !== undefined) {
      resolveFilter(opts.filter, opts.paths)
      held.write(held.release())
    }
    return EXIT_USAGE
  }
  let current = '<none>'
  parser = reportingFindings(
    picked,
    () => log,
    () => current,
  )
  // `-` is standard input, read as one .log segment where it stands first or last
  const found = discover(opts.paths.filter((p) => p !== STDIN_PATH))
  // the exit rule (docs/findings.md): 2 for a path on the command line that cannot be used or when nothing could be
  // read; a file that cannot be read among files that were (a FIFO where a .txnindex should be) is a finding, exit 1
  let named = false
  let answered = false
  if (opts.paths.includes(STDIN_PATH)) {
    const why = stdinProblem(opts.paths, ctx.stdinIsTTY === true)
    if (why !== undefined) {
      log.unusable(STDIN_PATH, why)
      named = true
    } else if (opts.paths[0] === STDIN_PATH) found.files.unshift(stdinFile())
    else found.files.push(stdinFile())
  }
  let remote: RemoteDumpFiles | undefined
  if (opts.remote !== undefined) {
    try {
      remote = new RemoteDumpFiles(opts.remote, found, log)
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      log.unusable(e.file, e.message, e.code)
      named = true
    }
  }
  for (const p of found.problems) {
    log.unusable(p.path, p.message)
    if (opts.paths.includes(p.path)) named = true
  }
  for (const s of found.skipped) printer.skipped(s.path, s.reason)
  const state: RunState & IndexRunState = { nonConsecutive: new Map(), ...newIndexRunState() }
  // filters: segments wholly out of range stay unread (their names say so); one filter per partition directory
  const unread = opts.filter === undefined ? new Set<string>() : segmentsOutOfRange(found.files, opts.filter)
  const ranges = new Map<string, RangeFilter>()
  const topicIds: TopicIds = new Map()
  const files = found.files.filter((f) => asked(f, opts))
  // --isolation-level: each partition's scan holds the bytes of the segments dumped here, which read them from there
  const segments = new Set(
    files.filter((f) => f.kind === 'log' && !unread.has(f.path)).map((f) => path.resolve(f.path)),
  )
  const gates =
    opts.isolationLevel === undefined ? undefined : new IsolationGates(opts.isolationLevel, (p) => segments.has(p))
  if (gates !== undefined) {
    closing.push(() => gates.close())
    state.source = (f, s) => gates.source(f, s)
  }
  // the segments whose .index or .timeindex this run dumps: their .log's batches are kept for the check
  const indexed = new Set(
    files.filter((f) => f.kind === 'index' || f.kind === 'timeindex').map((f) => path.resolve(companion(f, '.log'))),
  )
  // the segments whose .timeindex this run dumps: it is read before the .log, whose dump takes the records' timestamps its check needs
  const timeIndexed = new Set(
    files.filter((f) => f.kind === 'timeindex').map((f) => path.resolve(companion(f, '.log'))),
  )
  state.timeIndexed = timeIndexed
  // the partition directories whose leader-epoch-checkpoint this run dumps: their segments' epochs are kept for its check
  const epochDirs = new Set(
    files.filter((f) => f.name === 'leader-epoch-checkpoint' && f.stdin !== true).map((f) => path.dirname(f.path)),
  )
  const epochsOf = new Map<string, EpochRuns>()
  const dumpFile = async (file: KafkaFile, range: RangeFilter | undefined, tap?: FrameTap): Promise<void> => {
    current = file.path
    const unreadableBefore = log.unreadableCount()
    if (file.stdin !== true && file.remote === undefined) Object.assign(file, partitionOf(file.path))
    printer.fileStart(file)
    try {
      switch (file.kind) {
        case 'log':
        case 'checkpoint': {
          // --threads: large files are dumped by worker threads (commands/workers/dump-pool.ts), the same bytes
          // (filtered: one thread, from where the indexes say the range begins)
          const gate = gates?.of(file)
          state.seen =
            file.kind === 'log' && indexed.has(path.resolve(file.path))
              ? new BatchPositions(path.resolve(file.path))
              : undefined
          state.stamps =
            file.kind === 'log' && timeIndexed.has(path.resolve(file.path)) && !opts.indexSanityCheck
              ? TimeIndexStamps.read(
                  path.resolve(companion(file, '.timeindex')),
                  path.resolve(file.path),
                  file.baseOffset ?? 0n,
                )
              : undefined
          const dir = path.dirname(file.path)
          state.epochs = undefined
          if (file.kind === 'log' && epochDirs.has(dir)) {
            state.epochs = epochsOf.get(dir) ?? epochRunsFor(dir)
            epochsOf.set(dir, state.epochs)
          }
          const body =
            range !== undefined || gate !== undefined
              ? filteredBody(file, opts, ctx, log, printer, range, gate, tap)
              : parallelBody(file, opts, ctx, log, printer, internals)
          printer.summary(await dumpLogFile(file, opts, ctx, log, printer, state, body))
          break
        }
        case 'index':
          dumpOffsetIndex(file, opts, printer, log, state)
          break
        case 'timeindex':
          dumpTimeIndex(file, opts, printer, log, state)
          break
        case 'txnindex':
          dumpTxnIndex(file, opts, printer, log)
          break
        case 'snapshot':
          dumpProducerSnapshot(file, opts, printer, log)
          break
        case 'metadata':
          dumpPartitionFile(file, printer, log, topicIds, epochsOf.get(path.dirname(file.path)))
          break
      }
    } catch (e) {
      const err = e as NodeJS.ErrnoException
      if (e instanceof InputError) log.unusable(e.file, e.message, e.code, e.position)
      else if (typeof err.code === 'string' && /^E[A-Z]+$/.test(err.code))
        log.unusable(file.path, `${err.code}: ${err.message}`)
      else throw e
    }
    if (log.unreadableCount() === unreadableBefore) answered = true
    log.endFile()
  }
  const idFirst = held === undefined ? undefined : new IdFirst()
  if (held !== undefined) {
    const before = held.release()
    opts.filter = await idFirst!.resolve(
      opts as DumpOptions & { filter: RangeSpec & { transactionalId: string } },
      files,
      unread,
      held,
      (f, filter, tap) => dumpFile(f, filter, tap),
    )
    held.write(before)
  }
  // V8's young generation held once grown to 16 MiB (io/young-generation.ts), looked at after each file once the
  // run has read LOOK_AFTER_BYTES: a long run's trickle of survivors doubled it to 32 MiB, and an
  // --isolation-level dump of scale-1000000 peaked at 129 MiB (49 MiB of heap, 17 of it used)
  let logBytes = 0
  for (const file of remote?.files(found.files, (f) => asked(f, opts), unread, opts.filter) ?? files) {
    if (ctx.stdout.closed) break
    const part = idFirst?.heldFor(file)
    if (part !== undefined) {
      held!.write(part)
      continue
    }
    let range: RangeFilter | undefined
    if (opts.filter !== undefined) {
      if (file.kind !== 'log' && file.kind !== 'checkpoint') {
        printer.skipped(file.path, 'not a segment: the offset, time and producer filters read .log segments only')
        continue
      }
      if (unread.has(file.path)) continue
      const key = file.kind === 'log' && file.stdin !== true ? path.dirname(path.resolve(file.path)) : file.path
      range = ranges.get(key) ?? new RangeFilter(opts.filter)
      ranges.set(key, range)
      if (range.done) continue // the range ended in an earlier segment of this partition
    }
    if (gates !== undefined && file.stdin === true) {
      log.unusable(
        STDIN_PATH,
        '--isolation-level needs the partition directory (its markers, HW and LSO), which standard input has not',
      )
      named = true
      continue
    }
    if (gates !== undefined && file.kind !== 'log') {
      printer.skipped(file.path, 'not a segment: --isolation-level reads .log segments only')
      continue
    }
    // kafka-dump-log reads no partition-level text file: --compat skips them as before
    if (file.kind === 'metadata' && opts.compat) {
      printer.skipped(file.path, 'broker metadata file, not a segment')
      continue
    }
    await dumpFile(file, range)
    if (file.kind === 'log' && file.stdin !== true && file.remote === undefined) logBytes += sizeOf(file.path) ?? 0
    if (logBytes >= LOOK_AFTER_BYTES) young.check()
  }
  log.endFile() // the run's findings outside any file (and a file left when the reader went away)
  // a coordinator partition dumped first (id-first.ts) listed its offset gaps first: in path order, as dumped
  if (idFirst !== undefined) inFileOrder(state.nonConsecutive, files)
  printer.end(state)
  ctx.stdout.flush()
  return !named && answered ? Math.min(log.exitCode, EXIT_FINDINGS) : log.exitCode
}

/** a smaller run never loads node:v8 to look at its young generation (bin/tsdump.js: 3-4 ms of a short run) */
const LOOK_AFTER_BYTES = 64 * 1024 * 1024

/**
 * A mode picks the files it is about from a directory: index checks read only .index/.timeindex, --control-only
 * only segments (.log, .checkpoint). A file named explicitly is always read, as kafka-dump-log does.
 */
function asked(f: KafkaFile, opts: DumpOptions): boolean {
  if (f.stdin === true || opts.paths.includes(f.path)) return true
  if (opts.filter !== undefined) return f.kind === 'log' || f.kind === 'checkpoint'
  if (opts.isolationLevel !== undefined) return f.kind === 'log'
  if (opts.verifyIndexOnly || opts.indexSanityCheck) return f.kind === 'index' || f.kind === 'timeindex'
  if (opts.controlOnly) return f.kind === 'log' || f.kind === 'checkpoint'
  return true
}

/** A filtered segment: read from where its indexes say the range can begin (commands/dump/seek.ts), batches in range only. */
function filteredBody(
  file: KafkaFile,
  opts: DumpOptions,
  ctx: CommandContext,
  log: FindingLog,
  printer: DumpPrinter,
  filter: RangeFilter | undefined,
  visible: BatchGate | undefined,
  frames?: FrameTap,
): LogBody {
  return (source, summary, progress) => {
    const seek: Seek = filter !== undefined ? seekPosition(file, source, opts.filter!) : { position: 0 }
    if (seek.finding !== undefined) log.add(seek.finding)
    return dumpLogRange(
      source,
      file,
      opts,
      ctx.stdout,
      log,
      printer,
      summary,
      {
        from: seek.position,
        ...(seek.held !== undefined ? { held: seek.held } : {}),
        end: viewEnd(source.size, opts),
        ...(filter !== undefined ? { filter } : {}),
        ...(visible !== undefined ? { visible } : {}),
        ...(frames !== undefined ? { frames } : {}),
      },
      progress,
    )
  }
}

/** `pairs` (keyed by resolved path) reordered as `files` are */
function inFileOrder<T>(pairs: Map<string, T>, files: readonly KafkaFile[]): void {
  const all = new Map(pairs)
  pairs.clear()
  for (const f of files) {
    const k = path.resolve(f.path)
    const v = all.get(k)
    if (v !== undefined) pairs.set(k, v)
    all.delete(k)
  }
  for (const [k, v] of all) pairs.set(k, v)
}
