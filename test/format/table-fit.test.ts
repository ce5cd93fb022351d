import fc from 'fast-check'
import { Chalk } from 'chalk'
import type { ChalkInstance } from 'chalk'
import { describe, expect, it } from 'vitest'
import type { Column, TableCell } from '../../src/format/table.js'
import { fitTable } from '../../src/format/table.js'

// fitTable lays out a table by fitColumns, the rule the txns runs table shares. The oracle is the table rule
// as stated: short forms when the full table is wider than `width`, droppable columns out by rank (empty
// ones first), every kept cell padded (left or right), styled after padding, joined by two spaces, and
// each line trimmed at its end.

function reference(
  columns: readonly Column[],
  rows: ReadonlyArray<readonly TableCell[]>,
  chalk: ChalkInstance,
  wide: boolean,
  width: number,
): string {
  const keep = columns.map(() => true)
  const widthOf = (headers: string[], texts: string[][]): number => {
    let total = 0
    let n = 0
    headers.forEach((h, i) => {
      if (!keep[i]) return
      let w = h.length
      for (const r of texts) w = Math.max(w, (r[i] ?? '').length)
      total += w
      n++
    })
    return total + 2 * Math.max(0, n - 1)
  }
  let headers = columns.map((c) => c.header)
  let texts = rows.map((r) => r.map((c) => c.text))
  if (!wide)
    columns.forEach((c, i) => {
      if (c.dropRank !== undefined && texts.every((r) => (r[i] ?? '') === '')) keep[i] = false
    })
  if (!wide && widthOf(headers, texts) > width) {
    headers = columns.map((c) => c.short ?? c.header)
    texts = rows.map((r) => r.map((c) => c.short ?? c.text))
    const ranks = [...new Set(columns.map((c) => c.dropRank).filter((r): r is number => r !== undefined))].sort(
      (a, b) => a - b,
    )
    for (const rank of ranks) {
      if (widthOf(headers, texts) <= width) break
      columns.forEach((c, i) => {
        if (c.dropRank === rank) keep[i] = false
      })
    }
  }
  const widths = headers.map((h, i) => Math.max(h.length, ...texts.map((r) => (r[i] ?? '').length)))
  const line = (cells: string[], left: (i: number) => boolean, style: (i: number, s: string) => string): string =>
    cells
      .map((s, i) => ({ s, i }))
      .filter(({ i }) => keep[i])
      .map(({ s, i }) => style(i, left(i) ? s.padEnd(widths[i]!) : s.padStart(widths[i]!)))
      .join('  ')
      .trimEnd()
  const out = [
    line(
      headers,
      () => true,
      (_i, s) => chalk.bold(s),
    ),
  ]
  rows.forEach((r, ri) =>
    out.push(
      line(
        texts[ri]!,
        (i) => r[i]?.left ?? columns[i]?.left === true,
        (i, s) => r[i]?.style?.(s) ?? s,
      ),
    ),
  )
  return out.join('\n') + '\n'
}

const text = fc.oneof(
  fc.constantFrom('', ' ', 'a ', ' a', '12345', 'COMMIT', 'x\t', 'é', '日本', 'end\u00a0'),
  fc.string({ maxLength: 12 }),
)
const column: fc.Arbitrary<Column> = fc.record(
  {
    header: fc.string({ minLength: 1, maxLength: 8 }),
    short: fc.option(fc.string({ minLength: 1, maxLength: 4 }), { nil: undefined }),
    left: fc.option(fc.boolean(), { nil: undefined }),
    dropRank: fc.option(fc.integer({ min: 1, max: 3 }), { nil: undefined }),
  },
  { requiredKeys: ['header'] },
)

describe('fitTable', () => {
  it('lays out what the table rule says, with and without colour', () => {
    fc.assert(
      fc.property(
        fc.array(column, { minLength: 1, maxLength: 6 }),
        fc.nat(),
        fc.boolean(),
        fc.integer({ min: 5, max: 60 }),
        fc.constantFrom(0, 1),
        (columns, seed, wide, width, level) => {
          const chalk = new Chalk({ level: level as 0 | 1 })
          const styles = [undefined, chalk.green, chalk.red, (s: string) => s, (s: string) => `<${s}>`]
          const cellArb: fc.Arbitrary<TableCell> = fc.record(
            {
              text,
              short: fc.option(text, { nil: undefined }),
              left: fc.option(fc.boolean(), { nil: undefined }),
              style: fc.constantFrom(...styles),
            },
            { requiredKeys: ['text'] },
          )
          const rows = fc.sample(
            fc.array(fc.array(cellArb, { minLength: 0, maxLength: columns.length + 1 }), { maxLength: 8 }),
            { seed, numRuns: 1 },
          )[0]!
          expect(fitTable(columns, rows, chalk, { wide, width }).text).toBe(
            reference(columns, rows, chalk, wide, width),
          )
        },
      ),
      { numRuns: 3000 },
    )
  })

  it('lays out rows of long cells', () => {
    const columns: Column[] = [{ header: 'N' }, { header: 'T', left: true }]
    const rows: TableCell[][] = Array.from({ length: 40 }, (_, i) => [
      { text: String(i) },
      { text: 'y'.repeat(i * 1000) + 'z' },
    ])
    expect(fitTable(columns, rows, new Chalk({ level: 0 }), { wide: true }).text).toBe(
      reference(columns, rows, new Chalk({ level: 0 }), true, 80),
    )
  })
})
