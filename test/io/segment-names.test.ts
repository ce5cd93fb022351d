// Issue 12 items 12 and 13: tiered-storage copies pair up like plain names, partitions sort numerically.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { classify, comparePartitionDirNames, parsePartitionDirName } from '../../src/io/segment-names.js'
import { discover } from '../../src/io/discover.js'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

const P0 = path.join(FIXTURES, 'orders/logs/orders-11-0')
// a Kafka Uuid as RemoteLogSegmentFileset names the copies (22 base64url characters)
const UUID = 'AAECAwQFBgcICQoLDA0ODw'
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-names-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

/** copy a partition directory's segment files as `<offset>-<uuid>.<suffix>` */
function tieredCopy(to: string): void {
  fs.mkdirSync(to, { recursive: true })
  for (const n of fs.readdirSync(P0).filter((x) => /^\d{20}\./.test(x))) {
    fs.copyFileSync(path.join(P0, n), path.join(to, `${n.slice(0, 20)}-${UUID}${n.slice(20)}`))
  }
}

describe('segment names', () => {
  it('a tiered copy takes its base offset from the digits before "-"', () => {
    expect(classify(`00000000000000000042-${UUID}.txnindex`)).toEqual({ kind: 'txnindex', baseOffset: 42n })
    expect(classify('00000000000000000042-5f3c1a2e-8d6b-4c1f-9a0e-2b7d6c4e1f00.log')).toEqual({
      kind: 'log',
      baseOffset: 42n,
    })
    expect(classify('00000000000000000042.index')).toEqual({ kind: 'index', baseOffset: 42n })
    expect(classify('orders.log')).toEqual({ kind: 'log', baseOffset: null })
  })
  it('topics with dashes and digits keep their partition number; t-2 sorts before t-10', () => {
    expect(parsePartitionDirName('my-topic-3-10')).toEqual({ topic: 'my-topic-3', partition: 10 })
    const names = ['t-10', 'a-1-10', 't-2', 'a-1-2', 't-1', 'a-1-1', 'lost+found']
    expect(names.sort(comparePartitionDirNames)).toEqual([
      'a-1-1',
      'a-1-2',
      'a-1-10',
      't-1',
      't-2',
      't-10',
      'lost+found',
    ])
  })
  it('reconcile of a tiered copy agrees with the plain partition: no false txnindex findings, exit 0', async () => {
    const dir = path.join(tmp, 'tiered', 'orders-11-0')
    tieredCopy(dir)
    const plain = await runCli(['reconcile', '--json', P0])
    const tiered = await runCli(['reconcile', '--json', dir])
    expect(tiered.stderr).not.toMatch(/TXNINDEX_MISSING_ENTRY|CONSUMER_VIEW_DIFFERS/)
    expect(tiered.code).toBe(0)
    type Part = { readCommitted: number; readUncommitted: number; abortedRecords: number }
    const pick = (s: string): Part => {
      const p = (JSON.parse(s) as { partitions: Part[] }).partitions[0]!
      return { readCommitted: p.readCommitted, readUncommitted: p.readUncommitted, abortedRecords: p.abortedRecords }
    }
    expect(pick(tiered.stdout)).toEqual(pick(plain.stdout))
    // the producer snapshot of the copy is used too (named <offset>-<uuid>.snapshot)
    expect(discover([dir]).files.map((f) => f.kind)).toEqual(['log', 'index', 'timeindex', 'txnindex', 'snapshot'])
  })
  it('a broker log directory and a shell-expanded list both come out in numeric partition order', async () => {
    const logDir = path.join(tmp, 'logdir')
    for (const p of [10, 2, 1]) {
      const d = path.join(logDir, `orders-11-${p}`)
      fs.mkdirSync(d, { recursive: true })
      for (const n of fs.readdirSync(P0).filter((x) => /^\d{20}\./.test(x)))
        fs.copyFileSync(path.join(P0, n), path.join(d, n))
    }
    expect(discover([logDir]).partitions.map((p) => p.partition)).toEqual([1, 2, 10])
    const shellOrder = ['orders-11-1', 'orders-11-10', 'orders-11-2'].map((n) => path.join(logDir, n))
    const r = await runCli(['reconcile', '--json', ...shellOrder])
    expect(
      (JSON.parse(r.stdout) as { partitions: Array<{ partition: number }> }).partitions.map((p) => p.partition),
    ).toEqual([1, 2, 10])
  })
})
