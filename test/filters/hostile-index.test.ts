// An index is a hint: whatever the .index beside a segment says, a filtered dump prints what kafka-dump-log's
// full output holds for the range (an unusable entry costs a read from the segment's start and a warning, never
// a wrong line). Property-based over index files made of real positions, positions inside batches and garbage.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'
import { entryLines, oracleBatches } from './oracle.js'

const SRC = path.join(REPO_ROOT, 'fixtures/broker/interleaved/logs/mixed-0')
const SEGMENT = oracleBatches(path.join(REPO_ROOT, 'fixtures/broker/interleaved/dump/mixed-0'), 'shallow').filter(
  (b) => b.baseOffset >= 23n && b.baseOffset < 46n,
)
// batch starts of segment 23, as kafka-dump-log prints them
const STARTS = SEGMENT.map((b) => Number(/ position: (\d+) /.exec(b.line)![1]))

describe('a filtered dump whatever the .index says', () => {
  it('prints the batches of the range, exactly (property)', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-hostile-index-'))
    const part = path.join(dir, 'mixed-0')
    fs.mkdirSync(part)
    fs.copyFileSync(path.join(SRC, '00000000000000000023.log'), path.join(part, '00000000000000000023.log'))
    const entry = fc.record({
      relativeOffset: fc.integer({ min: -3, max: 30 }),
      position: fc.oneof(
        fc.constantFrom(...STARTS),
        fc.integer({ min: -10, max: 2100 }),
        fc.constantFrom(0x7fffffff, -0x80000000),
      ),
    })
    await fc.assert(
      fc.asyncProperty(
        fc.array(entry, { maxLength: 6 }),
        fc.integer({ min: 23, max: 46 }),
        fc.integer({ min: 0, max: 6 }),
        async (entries, start, span) => {
          const idx = Buffer.alloc(entries.length * 8)
          entries.forEach((e, i) => {
            idx.writeInt32BE(e.relativeOffset, i * 8)
            idx.writeInt32BE(e.position, i * 8 + 4)
          })
          fs.writeFileSync(path.join(part, '00000000000000000023.index'), idx)
          const s = BigInt(start)
          const e = s + BigInt(span)
          const r = await runCli([
            '--compat',
            '--kafka-version',
            '3.9',
            '--start-offset',
            String(s),
            '--end-offset',
            String(e),
            part,
          ])
          expect(r.code).toBeLessThanOrEqual(1)
          expect(r.stderr).not.toMatch(/internal error/)
          expect(entryLines(r.stdout)).toEqual(
            SEGMENT.filter((b) => b.lastOffset >= s && b.baseOffset <= e).map((b) => b.line),
          )
        },
      ),
      { numRuns: 150, seed: 4242 },
    )
  }, 60_000)
})
