// dump checks a leader-epoch-checkpoint against every batch's partitionLeaderEpoch from what the dump of the
// partition's segments saw (commands/dump/epoch-runs.ts), reading them again only when a cache entry starts inside a
// run of one epoch. Both ways must count what kafka-dump-log's stored text of the segment says: its batches'
// baseOffset and partitionLeaderEpoch.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterEach, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

const PART = path.join(FIXTURES, 'orders/logs/__transaction_state-2')
const TEXT = path.join(FIXTURES, 'orders/dump-4.4.0/__transaction_state-2/00000000000000000000.log.txnlog.txt')

/** (baseOffset, partitionLeaderEpoch) of each batch, from kafka-dump-log 4.4.0's text */
function batches(): Array<{ base: bigint; epoch: number }> {
  return [...fs.readFileSync(TEXT, 'utf8').matchAll(/^baseOffset: (\d+) .* partitionLeaderEpoch: (-?\d+) /gm)].map(
    (m) => ({ base: BigInt(m[1]!), epoch: Number(m[2]) }),
  )
}

const dirs: string[] = []
afterEach(() => {
  for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true })
})

/** a copy of the partition with this cache (epoch, start offset) */
function withCache(entries: Array<[number, bigint]>): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-epochs-'))
  dirs.push(root)
  const dir = path.join(root, '__transaction_state-2')
  fs.cpSync(PART, dir, { recursive: true })
  fs.writeFileSync(
    path.join(dir, 'leader-epoch-checkpoint'),
    `0\n${entries.length}\n${entries.map(([e, o]) => `${e} ${o}`).join('\n')}\n`,
  )
  return dir
}

/** batches whose epoch is not the cache's at their base offset, as LeaderEpochFileCache would assign it */
function expectedWrong(entries: Array<[number, bigint]>): number {
  return batches().filter((b) => {
    if (b.epoch < 0) return false
    const e = entries.filter(([, o]) => o <= b.base).at(-1)
    return e?.[0] !== b.epoch
  }).length
}

describe('dump: leader-epoch-checkpoint against the batches', () => {
  it('the stored text has batches of one epoch', () => {
    expect(batches().length).toBeGreaterThan(3)
  })

  // entry boundaries outside the run of epoch 0: answered from the dump's runs; inside it: the segments read again
  for (const entries of [
    [[3, 0n]],
    [
      [0, 0n],
      [2, 1000n],
    ],
    [[0, 2n]],
    [
      [1, 0n],
      [0, 3n],
    ],
  ] as Array<Array<[number, bigint]>>) {
    it(`cache ${JSON.stringify(entries.map(([e, o]) => `${e}@${o}`))}: ${expectedWrong(entries)} batches disagree`, async () => {
      const dir = withCache(entries)
      const r = await runCli(['dump', dir])
      const n = expectedWrong(entries)
      if (n === 0) expect(r.stderr).not.toContain('EPOCH_CHECKPOINT_MISMATCH')
      else expect(r.stderr).toContain(`${n} batches disagree with this cache`)
    })
  }
})
