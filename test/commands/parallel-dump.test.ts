// --threads: the parallel dump (commands/workers/dump-pool.ts) writes exactly what the one-thread dump writes,
// stdout and stderr byte for byte and the exit code, in every mode, on real segments and on damaged copies
// of them (bit flips, truncations, zero holes). Workers are forced on small files with small ranges
// (DumpInternals), and each case checks that the file really was cut into more than one range.
// The workers run the compiled dist/, which vitest's globalSetup (test/support/build-dist.ts) rebuilds first
// when a src/ file is newer.
import * as fs from 'node:fs'
import * as path from 'node:path'
import fc from 'fast-check'
import { afterAll, describe, expect, it } from 'vitest'
import { toDumpOptions } from '../../src/cli/commands/dump.js'
import { runDump } from '../../src/commands/dump.js'
import { flipBit, segment } from '../support/segment-builder.js'
import { frameBoundaries, realLogs, rmrf, testContext, tmp, writeLog } from '../hostile/support.js'
import { staleSource } from '../support/build-dist.js'
import { hasMkfifo, slowPipe } from '../support/slow-pipe.js'
import { FdWriter } from '../../src/cli/fd-writer.js'

const dir = tmp('tsdump-threads-')
afterAll(() => rmrf(dir))

const logs = realLogs().filter((p) => fs.statSync(p).size > 0)
if (logs.length === 0)
  console.log('skipping parallel dump tests: no real segments (../shared/corpus, fixtures/broker) found')

type Flags = Parameters<typeof toDumpOptions>[1]
const MODES: Record<string, (size: number) => Flags> = {
  text: () => ({}),
  compat: () => ({ compat: true }),
  json: () => ({ json: true }),
  deep: () => ({ deepIteration: true }),
  'print-data': () => ({ printDataLog: true }),
  'compat-print-data': () => ({ compat: true, printDataLog: true }),
  'json-print-data': () => ({ json: true, printDataLog: true }),
  'control-only-deep': () => ({ controlOnly: true, deepIteration: true }),
  'max-bytes': (size) => ({ maxBytes: Math.max(1, Math.floor(size * 0.6)) }),
  'max-bytes-deep': (size) => ({ maxBytes: Math.max(1, Math.floor(size * 0.3)), deepIteration: true }),
  // the NDJSON header and topic/partition on every object, READ_LIMIT as a finding line (issue #12)
  'json-deep-max-bytes': (size) => ({
    json: true,
    deepIteration: true,
    maxBytes: Math.max(1, Math.floor(size * 0.45)),
  }),
  'compat-max-bytes': (size) => ({ compat: true, maxBytes: Math.max(1, Math.floor(size * 0.45)) }),
}

interface Out {
  code: number
  stdout: string
  stderr: string
  ranges: number
}

/** `rangeBytes` undefined: the ranges the dump sizes itself from its output (commands/workers/dump-pool.ts Pace) */
async function dump(file: string, flags: Flags, threads: number, rangeBytes: number | undefined): Promise<Out> {
  const ctx = testContext()
  let ranges = 0
  const code = await runDump({ ...toDumpOptions([file], { ...flags, progress: false }), threads }, ctx, {
    parallelMinBytes: 0,
    ...(rangeBytes !== undefined ? { rangeBytes } : {}),
    onRanges: (n) => {
      ranges = n
    },
  })
  return { code, stdout: ctx.stdout.text, stderr: ctx.stderr.text, ranges }
}

async function expectSame(file: string, mode: string, rangeBytes: number | undefined): Promise<void> {
  const flags = MODES[mode]!(fs.statSync(file).size)
  const one = await dump(file, flags, 1, rangeBytes)
  const two = await dump(file, flags, 2, rangeBytes)
  const label = `${file} ${mode} ranges of ${rangeBytes} B`
  expect(two.stdout, label).toBe(one.stdout)
  expect(two.stderr, label).toBe(one.stderr)
  expect(two.code, label).toBe(one.code)
  expect(one.ranges, 'one thread starts no workers').toBe(0)
  return expect(two.ranges, `${label}: the workers ran`).toBeGreaterThan(0)
}

describe.skipIf(logs.length === 0)('--threads 2 = --threads 1', () => {
  it('runs the current source: no src/ file is newer than dist/ (test/support/build-dist.ts rebuilds it)', () => {
    expect(staleSource()).toBeUndefined()
  })
  // the process's writer: the main thread writes each worker's ring as it is (FdWriter.writeBytes), here into a
  // non-blocking pipe that is full most of the time (EAGAIN, partial writes)
  it.runIf(hasMkfifo)("through the process's writer on a full non-blocking pipe: the same bytes", async () => {
    const file = logs.reduce((a, b) => (fs.statSync(b).size > fs.statSync(a).size ? b : a))
    for (const mode of ['print-data', 'json']) {
      const flags = MODES[mode]!(fs.statSync(file).size)
      const one = await dump(file, flags, 1, 4096)
      const pipe = slowPipe(dir, `pipe-${mode}`)
      const ctx = { ...testContext(), stdout: new FdWriter(pipe.fd, 64 * 1024) }
      let ranges = 0
      const code = await runDump({ ...toDumpOptions([file], { ...flags, progress: false }), threads: 2 }, ctx, {
        parallelMinBytes: 0,
        rangeBytes: 4096,
        onRanges: (n) => {
          ranges = n
        },
      })
      ctx.stdout.flush()
      expect((await pipe.done()).toString('utf8'), `${file} ${mode}`).toBe(one.stdout)
      expect(ctx.stderr.text).toBe(one.stderr)
      expect(code).toBe(one.code)
      expect(ranges).toBeGreaterThan(1)
    }
  })

  // deep: offset gaps across the cuts (compacted segments) are merged as the sequential dump lists them
  it('every real segment deep with data, cut at every entry', async () => {
    for (const file of logs) await expectSame(file, 'print-data', 1)
  })

  // more gaps than the text lists (LISTED_GAPS, 10,000), within one range and across ranges: the count of
  // those not listed is the sequential dump's (a worker's range posts only its newest 10,000)
  it('a gap after every record, more gaps than are listed', async () => {
    const p = writeLog(
      path.join(dir, 'gaps'),
      segment(...Array.from({ length: 30_000 }, (_, i) => ({ baseOffset: 2 * i }))),
    )
    for (const rangeBytes of [1024 * 1024, 256 * 1024]) {
      await expectSame(p, 'deep', rangeBytes)
      expect((await dump(p, { deepIteration: true }, 2, rangeBytes)).stderr).toContain(
        '... and 19999 earlier pairs, not listed (the newest 10000 are)',
      )
    }
  })

  // the default range sizes: 1 MiB first, then from the output per input byte (deep data: smaller ranges)
  it('ranges sized from the output as it goes', async () => {
    const p = writeLog(
      path.join(dir, 'paced'),
      segment(
        ...Array.from({ length: 40_000 }, (_, i) => ({
          baseOffset: i % 7 === 0 ? 3 * i : undefined,
          records: [{ key: `k${i}`, value: `value ${i}` }],
        })),
      ),
    )
    for (const mode of ['deep', 'print-data', 'text', 'json']) await expectSame(p, mode, undefined)
    expect((await dump(p, { printDataLog: true }, 2, undefined)).ranges).toBeGreaterThan(3)
  })

  it('real segments in every mode, any range size (property)', async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...logs),
        fc.constantFrom(...Object.keys(MODES)),
        fc.integer({ min: 1, max: 16384 }),
        async (file, mode, rangeBytes) => {
          await expectSame(file, mode, rangeBytes)
        },
      ),
      { numRuns: 30 },
    )
  })

  it('damaged copies: bit flips, truncations, zero holes, in every mode (property)', async () => {
    let n = 0
    const damage = fc.oneof(
      fc.record({
        kind: fc.constant('flip'),
        at: fc.double({ min: 0, max: 1, noNaN: true }),
        bit: fc.integer({ min: 0, max: 7 }),
      }),
      fc.record({
        kind: fc.constant('truncate'),
        at: fc.double({ min: 0.05, max: 1, noNaN: true }),
        bit: fc.constant(0),
      }),
      fc.record({
        kind: fc.constant('zeros'),
        at: fc.double({ min: 0, max: 0.95, noNaN: true }),
        bit: fc.integer({ min: 1, max: 4096 }),
      }),
    )
    await fc.assert(
      fc.asyncProperty(
        fc.constantFrom(...logs),
        fc.constantFrom(...Object.keys(MODES)),
        fc.integer({ min: 1, max: 8192 }),
        damage,
        async (file, mode, rangeBytes, d) => {
          const whole = fs.readFileSync(file)
          const end = frameBoundaries(whole).at(-1)!
          const buf = whole.subarray(0, Math.max(end, 1))
          const at = Math.min(buf.length - 1, Math.floor(d.at * buf.length))
          const bad =
            d.kind === 'flip'
              ? flipBit(buf, at * 8 + d.bit)
              : d.kind === 'truncate'
                ? buf.subarray(0, Math.max(1, at))
                : Buffer.concat([
                    buf.subarray(0, at),
                    Buffer.alloc(Math.min(d.bit, buf.length - at)),
                    buf.subarray(at + Math.min(d.bit, buf.length - at)),
                  ])
          const p = writeLog(path.join(dir, String(n++)), bad)
          await expectSame(p, mode, rangeBytes)
        },
      ),
      { numRuns: 40 },
    )
  })
})
