// writeRunTable (format/run-table.ts) writes a transaction's runs table of `tsdump transactions` as bytes. The
// oracle: each run's cells as the README's `transactions` example shows them (partition, offsets first..last or one,
// records, marker type or "none (open)", its offset, its coordinator epoch), laid out by fitTable with no column
// droppable (test/format/table-fit.test.ts checks fitTable against the table rule), each line indented.
import fc from 'fast-check'
import { Chalk } from 'chalk'
import { describe, expect, it } from 'vitest'
import type { PartitionRun } from '../../src/analysis/transaction-join/types.js'
import { RUN_COLUMNS, writeRunTable } from '../../src/format/run-table.js'
import type { TableCell } from '../../src/format/table.js'
import { fitTable } from '../../src/format/table.js'
import { StringWriter } from '../../src/format/writer.js'

interface Shape {
  topic: string
  partition: number
  first: bigint
  last: bigint | null
  records: number
  marker: { type: 'COMMIT' | 'ABORT'; offset: bigint; coordinatorEpoch: number | null } | null
}

function run(s: Shape): PartitionRun {
  return {
    topic: s.topic,
    partition: s.partition,
    producerId: 1000n,
    producerEpoch: 0,
    firstOffset: s.first,
    lastDataOffset: s.last,
    records: s.records,
    marker:
      s.marker === null
        ? null
        : { ...s.marker, epoch: 0, timestamp: 0n, file: '00000000000000000000.log', position: 0 },
    outcome: s.marker === null ? 'open' : s.marker.type === 'COMMIT' ? 'committed' : 'aborted',
    firstTimestamp: null,
    lastTimestamp: null,
    seeded: false,
    file: '00000000000000000000.log',
    position: 0,
  }
}

function cells(s: Shape): TableCell[] {
  return [
    { text: `${s.topic}-${s.partition}` },
    { text: s.last === null ? '-' : s.last === s.first ? `${s.first}` : `${s.first}..${s.last}` },
    { text: `${s.records}` },
    { text: s.marker === null ? 'none (open)' : s.marker.type },
    { text: s.marker === null ? '' : `${s.marker.offset}` },
    { text: s.marker?.coordinatorEpoch == null ? '' : `${s.marker.coordinatorEpoch}` },
  ]
}

function oracle(shapes: Shape[], wide: boolean, width: number, indent: string): string {
  const t = fitTable(RUN_COLUMNS, shapes.map(cells), new Chalk({ level: 0 }), { wide, width })
  return t.text
    .split('\n')
    .filter((l) => l !== '')
    .map((l) => `${indent}${l}\n`)
    .join('')
}

// (a last offset up to 2^20 past the first stays below 2^53: past it the string path writes the table)
const offset = fc.bigInt({ min: 0n, max: 2n ** 53n - 1n - 2n ** 20n })
const shape: fc.Arbitrary<Shape> = fc
  .record({
    topic: fc.stringMatching(/^[a-zA-Z0-9._-]{1,40}$/),
    partition: fc.integer({ min: 0, max: 5000 }),
    first: offset,
    span: fc.option(fc.bigInt({ min: 0n, max: 2n ** 20n }), { nil: null }),
    records: fc.integer({ min: 0, max: 2_000_000 }),
    marker: fc.option(
      fc.record({
        type: fc.constantFrom('COMMIT' as const, 'ABORT' as const),
        offset,
        coordinatorEpoch: fc.option(fc.integer({ min: 0, max: 2 ** 31 - 1 }), { nil: null }),
      }),
      { nil: null },
    ),
  })
  .map(({ span, ...s }) => ({ ...s, last: span === null ? null : s.first + span }))

describe('writeRunTable', () => {
  it('writes the table fitTable lays out of the runs, each line indented', () => {
    fc.assert(
      fc.property(
        fc.array(shape, { minLength: 1, maxLength: 6 }),
        fc.boolean(),
        fc.constantFrom(40, 78, 120),
        (shapes, wide, width) => {
          const w = new StringWriter()
          expect(writeRunTable(w, shapes.map(run), new Chalk({ level: 0 }), wide, width, '  ')).toBe(true)
          expect(w.text).toBe(oracle(shapes, wide, width, '  '))
        },
      ),
      { numRuns: 500 },
    )
  })

  it('leaves to the string path, writing nothing, an offset past 2^53 or a topic that is not ASCII', () => {
    const base: Shape = { topic: 't', partition: 0, first: 5n, last: 6n, records: 2, marker: null }
    for (const s of [
      { ...base, first: 2n ** 53n, last: 2n ** 53n + 1n },
      { ...base, marker: { type: 'COMMIT' as const, offset: 2n ** 60n, coordinatorEpoch: 0 } },
      { ...base, topic: 'caf\u00e9' },
    ]) {
      const w = new StringWriter()
      expect(writeRunTable(w, [run(base), run(s)], new Chalk({ level: 0 }), false, 78, '  ')).toBe(false)
      expect(w.text).toBe('')
    }
  })
})
