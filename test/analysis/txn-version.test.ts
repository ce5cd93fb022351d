// Transaction version inferred from the epochs (KIP-890), on unit cases and on the Kafka 4.4.0 broker fixture
// (its producers use transaction version 2, fixtures/README.md).
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { inferTransactionVersion } from '../../src/analysis/transactions.js'
import { runCli } from '../support/run-cli.js'
import { REPO_ROOT } from '../support/paths.js'

const base = { empty: false, seeded: false }

describe('inferTransactionVersion', () => {
  it('marker epoch = data epoch + 1 is version 2; an ABORT so may also be a coordinator timeout abort; equal epochs are 0/1', () => {
    expect(inferTransactionVersion({ ...base, producerEpoch: 3, markerEpoch: 4, marker: { type: 'COMMIT' } })).toBe('2')
    expect(inferTransactionVersion({ ...base, producerEpoch: 3, markerEpoch: 4, marker: { type: 'ABORT' } })).toBe(
      '2 or timeout abort',
    )
    expect(inferTransactionVersion({ ...base, producerEpoch: 3, markerEpoch: 3, marker: { type: 'COMMIT' } })).toBe(
      '0/1',
    )
    expect(inferTransactionVersion({ ...base, producerEpoch: 3, markerEpoch: 6, marker: { type: 'ABORT' } })).toBeNull()
    expect(inferTransactionVersion({ ...base, producerEpoch: 3, markerEpoch: null, marker: null })).toBeNull()
    expect(
      inferTransactionVersion({ ...base, empty: true, producerEpoch: 3, markerEpoch: 3, marker: { type: 'ABORT' } }),
    ).toBeNull()
  })

  it('txns --json on the 4.4.0 fixture: every commit is version 2', async () => {
    const r = await runCli(['txns', '--json', path.join(REPO_ROOT, 'fixtures/broker-4.4/txn/logs/tv2-0')])
    const doc = JSON.parse(r.stdout) as {
      partitions: Array<{ runs: Array<{ kind: string; outcome: string; transactionVersion: string | null }> }>
    }
    const runs = doc.partitions[0]!.runs.filter((x) => x.kind === 'transaction')
    const commits = runs.filter((x) => x.outcome === 'committed')
    expect(commits.length).toBeGreaterThan(0)
    expect(commits.map((x) => x.transactionVersion)).toEqual(commits.map(() => '2'))
  })
})
