// GroupTimelines (analysis/transaction-join/group-positions.ts) answers, for each transactional offset commit, what
// its group held for the input partition before the commit's record and after its transaction's marker: of the
// commits in effect up to that log position, the one with the highest record offset (the earlier added on a tie),
// as GroupMetadata.completePendingTxnOffsetCommit keeps it. Its events are held in chunks and not sorted when they
// come in log order; checked here against the rule written out plainly, over events in log order and not, and
// across chunk boundaries.
import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { GroupTimelines } from '../../../src/analysis/transaction-join/group-positions.js'
import type { JoinedTransaction, OffsetCommit } from '../../../src/analysis/transaction-join/types.js'

interface Ev {
  record: bigint
  at: bigint
  offset: bigint | null
}

/** the rule, plainly: of the events at a position below p (up to p when inclusive), the highest record, earliest on a tie */
function plain(evs: readonly Ev[], p: bigint, inclusive: boolean): bigint | null {
  let win: Ev | null = null
  for (const e of evs) if ((inclusive ? e.at <= p : e.at < p) && (win === null || e.record > win.record)) win = e
  return win === null ? null : win.offset
}

/** a transaction with one commit at `record` in log L whose marker is at `marker` */
function tx(record: bigint, marker: bigint | null): JoinedTransaction {
  const c: OffsetCommit = {
    group: 'g',
    topic: 't',
    partition: 0,
    offset: 1n,
    metadata: null,
    log: 'L-0',
    recordOffset: record,
    committedBefore: -5n,
    committedAfter: -5n,
  }
  return {
    runs: [
      {
        topic: 'L',
        partition: 0,
        marker: marker === null ? null : { offset: marker, type: 'COMMIT' },
      },
    ],
    offsetCommits: [c],
  } as unknown as JoinedTransaction
}

function check(evs: readonly Ev[], queries: ReadonlyArray<[bigint, bigint | null]>): void {
  const g = new GroupTimelines()
  for (const e of evs) g.add('L-0', 'g', 't', 0, e)
  for (const [record, marker] of queries) {
    const t = tx(record, marker)
    g.fill(t)
    const c = t.offsetCommits[0]!
    expect(c.committedBefore).toBe(plain(evs, record, false))
    expect(c.committedAfter).toBe(marker === null ? null : plain(evs, marker, true))
  }
}

const ev = fc.record({
  record: fc.bigInt({ min: 0n, max: 60n }),
  at: fc.bigInt({ min: 0n, max: 60n }),
  offset: fc.option(fc.bigInt({ min: 0n, max: 1000n })),
})
const query = fc.tuple(fc.bigInt({ min: -1n, max: 62n }), fc.option(fc.bigInt({ min: -1n, max: 62n })))

describe('GroupTimelines: what a group holds before and after a transaction', () => {
  it('agrees with the rule over events in any order', () => {
    fc.assert(fc.property(fc.array(ev, { maxLength: 40 }), fc.array(query, { maxLength: 10 }), check), {
      numRuns: 2000,
    })
  })

  it('agrees with the rule over events in log order (no sort), ties and deleted offsets included', () => {
    fc.assert(
      fc.property(fc.array(ev, { maxLength: 60 }), fc.array(query, { maxLength: 10 }), (evs, qs) => {
        check(
          [...evs].sort((a, b) => (a.at < b.at ? -1 : a.at > b.at ? 1 : 0)),
          qs,
        )
      }),
      { numRuns: 2000 },
    )
  })

  it('holds many events across its chunks, in order and not', () => {
    const n = 10_000
    const inOrder: Ev[] = Array.from({ length: n }, (_, i) => ({
      record: BigInt((i * 7919) % n),
      at: BigInt(i),
      offset: i % 97 === 0 ? null : BigInt(i),
    }))
    const qs: Array<[bigint, bigint | null]> = [0n, 1n, 4095n, 4096n, 4097n, 8191n, 8192n, 9999n, 10_000n].map((p) => [
      p,
      p,
    ])
    check(inOrder, qs)
    check([...inOrder].reverse(), qs)
  })

  it('agrees with the rule where values are far apart (held whole) or near the int64 limits', () => {
    // a chunk holds int32 differences from its first value while they fit, its values whole once one does not
    const far = fc.oneof(
      fc.bigInt({ min: 0n, max: 60n }),
      fc.bigInt({ min: 2n ** 31n - 3n, max: 2n ** 31n + 3n }),
      fc.bigInt({ min: 2n ** 52n - 2n, max: 2n ** 53n + 2n }),
      fc.bigInt({ min: 2n ** 63n - 4n, max: 2n ** 63n - 1n }),
      fc.bigInt({ min: -(2n ** 63n) + 1n, max: -(2n ** 63n) + 4n }),
    )
    const wide = fc.record({ record: far, at: far, offset: fc.option(far) })
    const q = fc.tuple(far, fc.option(far))
    fc.assert(fc.property(fc.array(wide, { maxLength: 40 }), fc.array(q, { maxLength: 10 }), check), {
      numRuns: 2000,
    })
    // past the first chunk, a far value in the middle of one
    const n = 9000
    const evs: Ev[] = Array.from({ length: n }, (_, i) => ({
      record: i === 5000 ? 2n ** 62n : BigInt(i),
      at: BigInt(i),
      offset: i === 6000 ? -(2n ** 40n) : BigInt(3 * i),
    }))
    check(
      evs,
      [0n, 4095n, 4096n, 4999n, 5000n, 5001n, 6000n, 8999n].map((p) => [p, p]),
    )
  })
})
