// The exactly-once summary of `transactions` checks at most MAX_CHECKED_PRODUCERS producers (a million
// one-transaction producers took the tally to 795 MiB): past them it counts their transactions, lists none, and
// says so in text and JSON. The truth is the segment's writer: how many producers and transactions it wrote.
import { afterAll, describe, expect, it } from 'vitest'
import { MAX_CHECKED_PRODUCERS } from '../../src/analysis/transaction-join/exactly-once.js'
import { runTransactions, transactions } from '../../src/commands/transactions.js'
import { LogDir, LogWriter, runCommand } from '../support/txn-segment-builder.js'

const PAST = 25
const PRODUCERS = MAX_CHECKED_PRODUCERS + PAST
const d = new LogDir()
const w = new LogWriter()
for (let i = 0; i < PRODUCERS; i++) {
  w.txn(BigInt(1000 + i), 0, 1)
  w.marker(BigInt(1000 + i), 0, i % 10 === 0 ? 'ABORT' : 'COMMIT')
}
const dir = d.segment('many', 0, 0n, w.batches)
afterAll(() => {
  d.remove()
})

describe(`transactions with ${PRODUCERS} producers of one transaction each`, () => {
  it('lists every transaction, checks the first producers and counts the rest', () => {
    const r = transactions([dir], { now: 1_800_000_000_000 })
    expect(r.transactions).toHaveLength(PRODUCERS)
    expect(r.exactlyOnce).toHaveLength(MAX_CHECKED_PRODUCERS)
    expect(r.exactlyOnceNotChecked).toEqual({ checked: MAX_CHECKED_PRODUCERS, producerIds: PAST, transactions: PAST })
  })

  it('says so in the text and in --json', async () => {
    const text = await runCommand(async (o, ctx) => runTransactions(o, ctx), { paths: [dir], now: 1_800_000_000_000 })
    // the sentence as printed, its continuation lines joined
    expect(text.out.replace(/\n +/g, ' ')).toContain(
      `first ${MAX_CHECKED_PRODUCERS.toLocaleString('en-US')} producers: ${PAST} more producer ids (${PAST} transactions) were not checked`,
    )
    const json = await runCommand(async (o, ctx) => runTransactions(o, ctx), {
      paths: [dir],
      now: 1_800_000_000_000,
      format: 'json' as const,
    })
    const j = JSON.parse(json.out) as { exactlyOnce: unknown[]; exactlyOnceNotChecked: unknown }
    expect(j.exactlyOnce).toHaveLength(MAX_CHECKED_PRODUCERS)
    expect(j.exactlyOnceNotChecked).toEqual({ checked: MAX_CHECKED_PRODUCERS, producerIds: PAST, transactions: PAST })
  })
})

describe('fewer producers than the cap', () => {
  it('checks them all and says nothing of a cap', () => {
    const small = new LogDir()
    try {
      const sw = new LogWriter()
      for (let i = 0; i < 5; i++) {
        sw.txn(BigInt(7 + i), 0, 2)
        sw.marker(BigInt(7 + i), 0, 'COMMIT')
      }
      const r = transactions([small.segment('few', 0, 0n, sw.batches)], { now: 1_800_000_000_000 })
      expect(r.exactlyOnce).toHaveLength(5)
      expect(r.exactlyOnceNotChecked).toBeUndefined()
    } finally {
      small.remove()
    }
  })
})
