// transactions' join in bounded memory: the same answer whether every producer is joined in one bucket in memory
// or the input is cut into many buckets spilled to temp files and merged back (the path a large input takes).
// Every real broker's log directory among the fixtures, the spilled run forced with a bucket of a few KiB.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { transactions, transactionsStream } from '../../src/commands/transactions.js'
import { transactionsJson } from '../../src/format/transactions-json.js'
import type { TransactionsResult } from '../../src/analysis/transaction-join/types.js'
import { REPO_ROOT as REPO } from '../support/paths.js'

const NOW = Date.parse('2030-01-01T00:00:00Z')
const logDirs = ['broker', 'broker-4.4']
  .flatMap((v) => fs.readdirSync(path.join(REPO, 'fixtures', v)).map((n) => path.join(REPO, 'fixtures', v, n, 'logs')))
  .filter((d) => fs.existsSync(d) && fs.statSync(d).isDirectory())

function spilled(paths: string[], bucketBytes: number): { r: TransactionsResult; tempDirs: string[] } {
  const tempDirs: string[] = []
  const s = transactionsStream(
    paths,
    { now: NOW },
    {
      bucketBytes,
      onSpill: (dir) => {
        tempDirs.push(dir)
      },
    },
  )
  if ('unusable' in s) throw new Error('unusable')
  for (const d of tempDirs) expect(path.dirname(d)).toBe(os.tmpdir())
  const { items, count: _c, producers: _p, close: _x, ...rest } = s
  const all = [...items]
  for (const d of tempDirs)
    expect(fs.existsSync(d), 'the temp files are removed once the transactions are read').toBe(false)
  return { r: { ...rest, transactions: all }, tempDirs }
}

describe('transactions spilled to buckets and merged = joined in memory', () => {
  it('finds the fixtures', () => {
    expect(logDirs.length).toBeGreaterThan(10)
  })
  for (const d of logDirs) {
    it(path.relative(REPO, d), () => {
      const whole = transactions([d], { now: NOW })
      if (whole.unusable.length > 0) {
        expect(() => spilled([d], 256)).toThrow('unusable')
        return
      }
      const { r, tempDirs } = spilled([d], 256)
      expect(tempDirs).toHaveLength(1)
      expect(JSON.stringify(transactionsJson(r))).toBe(JSON.stringify(transactionsJson(whole)))
    })
  }
})
