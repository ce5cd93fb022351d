// A dump worker thread (commands/workers/dump-pool.ts starts it): dumps the ranges of one .log file it is
// sent with the same code as the sequential dump (dumpLogRange) and a printer made from the same options,
// writing into a ChunkWriter; reports each range's findings, stderr text, summary counts and totals.
import { parentPort, workerData } from 'node:worker_threads'
import { newSummary } from '../../analysis/log-summary.js'
import { StringWriter } from '../../format/writer.js'
import type { Writer } from '../../format/writer.js'
import { FileSource } from '../../io/file-source.js'
import type { CommandContext } from '../context.js'
import { dumpLogRange } from '../dump/dump-range.js'
import { makeDumpPrinter, pickParser, reportingFindings } from '../dump/dump-setup.js'
import { RingWriter, toWire } from './dump-wire.js'
import type { RangeRequest, WorkerMessage, WorkerSetup } from './dump-wire.js'
import { FindingLog } from '../dump/finding-log.js'

const port = parentPort
if (port === null) throw new Error('dump-worker.ts runs as a worker thread only')
const setup = workerData as WorkerSetup
const post = (m: WorkerMessage, transfer: ArrayBuffer[] = []): void => port.postMessage(m, transfer)
const stdout = new RingWriter(setup.ring, setup.inFlight, post)
const stderr = new StringWriter()
const ctx: CommandContext = {
  stdout,
  stderr,
  colorLevel: setup.colorLevel,
  stderrIsTTY: false,
  env: {},
  now: () => Date.now(),
}
const opts = { ...setup.opts, window: setup.window }
// the main thread made the same parser already; a missing one was reported there
const picked = await pickParser(setup.opts, () => {})
if (picked === undefined) throw new Error('payload parser not available in a dump worker')
let rangeLog: FindingLog | undefined
const parser = reportingFindings(
  picked,
  () => rangeLog,
  () => setup.file.path,
)
// The printer is made, and told the file (its topic and partition go into JSON objects), as the main
// thread's was; what that writes (the JSON header, the file's first line) the main thread wrote already.
const out = { ...ctx, stdout: new StringWriter() as Writer }
const printer = makeDumpPrinter(setup.opts, out, setup.colorLevel, parser, setup.internals)
printer.fileStart(setup.file)
out.stdout = stdout
const source = new FileSource(setup.file.path)
// one read window for all the ranges this worker dumps (a new one per range made RSS follow the GC)
const windowBuffer = Buffer.allocUnsafeSlow(setup.window)

port.on('message', (r: RangeRequest) => {
  stdout.range = r.id
  try {
    const log = new FindingLog(printer, true)
    rangeLog = log
    const summary = newSummary(setup.file.path)
    const totals = dumpLogRange(source, setup.file, opts, stdout, log, printer, summary, r, undefined, windowBuffer)
    stdout.flush()
    const wire = toWire(totals)
    post(
      {
        type: 'done',
        id: r.id,
        stderr: stderr.text,
        findings: log.forwarded!,
        repeats: log.repeats!,
        summary: summary.part(),
        totals: wire,
      },
      [wire.pairs.a.buffer as ArrayBuffer, wire.pairs.b.buffer as ArrayBuffer],
    )
    stderr.text = ''
  } catch (e) {
    const err = e as NodeJS.ErrnoException
    post({
      type: 'error',
      id: r.id,
      message: err.stack ?? err.message,
      code: typeof err.code === 'string' ? err.code : undefined,
    })
  }
})
