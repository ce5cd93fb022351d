// `tsdump lso` writes each partition into held output as it is judged (commands/lso/judge.ts, the printers'
// LsoStream) and puts it out after the impact lines: over 300 partitions its text and JSON are past the held
// output's 64 KiB buffer, so they come back from the scratch file (commands/spill-writer.ts). The answers are the
// generator's own (bench/make-remote.mjs: no transaction, every LSO at its high watermark), and the streamed
// output is the library's whole result printed (one output path).
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { remoteSegmentsTree } from '../../bench/make-remote.mjs'
import { lso, runLso } from '../../src/commands/lso.js'
import { createPartitionPrinter } from '../../src/format/partition-printer.js'
import { StringWriter } from '../../src/format/writer.js'
import { rmrf, tmp } from '../hostile/support.js'
import { runCommand } from '../support/txn-segment-builder.js'

const P = 300
const NOW = Date.parse('2026-12-07T00:00:00Z')
const dir = tmp('tsdump-lso-stream-')
afterAll(() => rmrf(dir))
let tree: ReturnType<typeof remoteSegmentsTree>
beforeAll(() => {
  tree = remoteSegmentsTree(path.join(dir, 'tree'), { partitions: P, segments: 2 })
})

/** the library's result, printed whole */
function printedWhole(format: 'text' | 'json'): { out: string; err: string } {
  const stdout = new StringWriter()
  const stderr = new StringWriter()
  createPartitionPrinter(format, { stdout, stderr }, { colorLevel: 0, wide: false }).lso(lso([tree.logs], { now: NOW }))
  return { out: stdout.text, err: stderr.text }
}

describe(`lso over ${P} partitions, its output held past 64 KiB`, () => {
  it('text: a line per partition after the (empty) impact, one warning each on stderr, as the whole result prints', async () => {
    const r = await runCommand(runLso, { paths: [tree.logs], now: NOW })
    expect(r.code).toBe(1)
    const end = tree.expected.logEndOffset
    const names = Array.from({ length: P }, (_, i) => `tiered-${i}`)
    expect(r.out.split('\n')).toEqual([
      ...names.map((l) => `${l}: LSO ${end} = HW ${end}, nothing is blocked`),
      '',
      'no hanging transactions (open > 15 min at 2026-12-07T00:00:00.000Z (--now))',
      '',
    ])
    expect(r.err.length).toBeGreaterThan(64 * 1024)
    expect(r.err.split('\n').filter((l) => l.endsWith('[REMOTE_NOT_READ]')).length).toBe(P)
    expect({ out: r.out, err: r.err }).toEqual(printedWhole('text'))
  })

  it('--json: one document, every partition in order, as the whole result prints', async () => {
    const r = await runCommand(runLso, { paths: [tree.logs], now: NOW, format: 'json' })
    expect(r.code).toBe(1)
    expect(r.out.length).toBeGreaterThan(64 * 1024)
    const j = JSON.parse(r.out) as { impact: unknown[]; partitions: Array<{ topic: string; partition: number }> }
    expect(j.impact).toEqual([])
    expect(j.partitions.map((p) => `${p.topic}-${p.partition}`)).toEqual(
      Array.from({ length: P }, (_, i) => `tiered-${i}`),
    )
    expect({ out: r.out, err: r.err }).toEqual(printedWhole('json'))
  })
})
