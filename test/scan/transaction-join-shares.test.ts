// transactions' bounded-memory join with each bucket joined a share of its producer ids at a time and the shares
// merged into the bucket's run (scan/transaction-buckets.ts, scan/joined-runs.ts): the same answer as the whole
// input joined in memory. bench/make-scale.mjs's synthetic log directory (TV1 and TV2 producers, offset commits,
// coordinator records, a few transactions left open) and the real brokers' fixtures, with buckets and shares of a
// few KiB, so that every bucket is cut into many shares.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { transactions } from '../../src/commands/transactions.js'
import { transactionsJson } from '../../src/format/transactions-json.js'
import { BrokerModel } from '../../src/scan/broker-model.js'
import { TransactionsCollector } from '../../src/scan/transactions-collect.js'
import { streamTransactions } from '../../src/scan/transactions-stream.js'
import type { TransactionsResult } from '../../src/analysis/transaction-join/types.js'
import { scaleLogDir } from '../../bench/make-scale.mjs'
import { REPO_ROOT as REPO } from '../support/paths.js'

const NOW = Date.parse('2030-01-01T00:00:00Z')
const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-shares-'))
afterAll(() => {
  fs.rmSync(root, { recursive: true, force: true })
})

/** the transactions of `dir` joined through temp files, buckets of `bucketBytes` input, shares of `shareBytes` */
function shared(dir: string, bucketBytes: number, shareBytes: number): { r: TransactionsResult; temp: string[] } {
  const model = new BrokerModel([dir], {})
  const temp: string[] = []
  const c = new TransactionsCollector(model, { bucketBytes, onSpill: (d) => temp.push(d) })
  const scan = model.scan(c.hooks)
  const collected = c.finish(scan)
  collected.buckets.shareBytes = shareBytes
  const s = streamTransactions(collected, { nowMs: NOW, nowGiven: true, maxTransactionTimeoutMinutes: 15 })
  const { items, count, producers: _p, close: _c, ...rest } = s
  const all = [...items]
  expect(all).toHaveLength(count)
  return { r: { ...rest, transactions: all }, temp }
}

const json = (r: TransactionsResult): string => JSON.stringify(transactionsJson(r))

describe('transactions joined in shares of each bucket = joined in memory', () => {
  it('a synthetic log directory of 1500 transactions, 50 partitions', () => {
    const dir = path.join(root, 'scale')
    scaleLogDir(dir, { transactions: 1500, ids: 40, slices: 1, open: 3 })
    const whole = transactions([dir], { now: NOW })
    expect(whole.transactions).toHaveLength(1500)
    const { r, temp } = shared(dir, 32 * 1024, 2048)
    expect(temp).toHaveLength(1)
    expect(fs.existsSync(temp[0]!), 'the temp files are removed once the transactions are read').toBe(false)
    expect(json(r)).toBe(json({ ...whole, nowGiven: true }))
  })

  const logDirs = ['broker', 'broker-4.4']
    .flatMap((v) =>
      fs.readdirSync(path.join(REPO, 'fixtures', v)).map((n) => path.join(REPO, 'fixtures', v, n, 'logs')),
    )
    .filter((d) => fs.existsSync(d) && fs.statSync(d).isDirectory())
  for (const d of logDirs) {
    it(path.relative(REPO, d), (ctx) => {
      const whole = transactions([d], { now: NOW })
      if (whole.unusable.length > 0) ctx.skip()
      const { r } = shared(d, 1024, 256)
      expect(json(r)).toBe(json({ ...whole, nowGiven: true }))
    })
  }
})
