// lso and transactions take kafka-transactions.sh's --topic / --partition as filters of what they report.
// The truth for the orders fixture: the partition directories' names (orders-11-0 is topic orders-11,
// partition 0), and for transactions the unfiltered list's own partitions per transaction.
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const logs = path.join(FIXTURES, 'orders', 'logs')
const NOW = ['--now', '2026-12-01T00:00:00Z']

interface Tx {
  producerId: string
  producerEpoch: number
  partitions: Array<{ topic: string; partition: number }>
}
const key = (t: Tx): string => `${t.producerId}/${t.producerEpoch}`

describe('--topic / --partition', () => {
  it('lso reports the partitions of that topic, or that one partition', async () => {
    const names = async (args: string[]): Promise<string[]> => {
      const r = await runCli(['lso', '--json', ...NOW, ...args, logs])
      expect(r.code, r.stderr).toBe(0)
      return (JSON.parse(r.stdout) as { partitions: Array<{ topic: string; partition: number }> }).partitions
        .map((p) => `${p.topic}-${p.partition}`)
        .sort()
    }
    const all = await names([])
    expect(all).toContain('orders-10-0')
    expect(await names(['--topic', 'orders-11'])).toEqual(['orders-11-0', 'orders-11-1', 'orders-11-2'])
    expect(await names(['--topic', 'orders-11', '--partition', '2'])).toEqual(['orders-11-2'])
    expect(await names(['--topic', 'nope'])).toEqual([])
  })

  it('transactions lists those that wrote to that topic (partition)', async () => {
    const list = async (args: string[]): Promise<Tx[]> => {
      const r = await runCli(['transactions', '--json', ...args, logs])
      expect(r.code, r.stderr).toBeLessThan(2)
      return (JSON.parse(r.stdout) as { transactions: Tx[] }).transactions
    }
    const all = await list([])
    expect(all.length).toBeGreaterThan(1)
    for (const [topic, partition] of [
      ['orders-11', undefined],
      ['orders-11', 0],
      ['orders-11', 1],
      ['__consumer_offsets', 1],
    ] as const) {
      const want = all
        .filter((t) =>
          t.partitions.some((p) => p.topic === topic && (partition === undefined || p.partition === partition)),
        )
        .map(key)
      const got = (
        await list(['--topic', topic, ...(partition === undefined ? [] : ['--partition', String(partition)])])
      ).map(key)
      expect(got, `${topic} ${partition}`).toEqual(want)
    }
    expect(await list(['--topic', 'orders-11', '--partition', '7'])).toEqual([])
  })

  it('--partition needs --topic; transactions takes no offset range and its help lists none', async () => {
    for (const cmd of ['lso', 'transactions']) {
      const r = await runCli([cmd, '--partition', '0', logs])
      expect(r.code).toBe(2)
      expect(r.stderr).toContain('--partition needs --topic')
    }
    const off = await runCli(['transactions', '--start-offset', '3', logs])
    expect(off.code).toBe(2)
    expect(off.stderr).toContain('--start-offset / --end-offset are offsets of one partition')
    const help = await runCli(['transactions', '--help'])
    expect(help.stdout).not.toMatch(/--(start|end)-offset/)
    expect(help.stdout).toContain('--topic')
  })
})
