import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { reconcilePartition } from '../support/reconcile-partition.js'
import type { BatchSummary } from '../../src/analysis/batch-facts.js'
import type { PartitionInput } from '../support/reconcile-partition.js'
import { consumerReadCommitted } from '../../src/analysis/visibility.js'

type Op =
  | { kind: 'write'; pid: number; n: number }
  | { kind: 'end'; pid: number; commit: boolean }
  | { kind: 'plain'; n: number }

const opArb: fc.Arbitrary<Op> = fc.oneof(
  fc.record({
    kind: fc.constant('write' as const),
    pid: fc.integer({ min: 1, max: 3 }),
    n: fc.integer({ min: 1, max: 4 }),
  }),
  fc.record({ kind: fc.constant('end' as const), pid: fc.integer({ min: 1, max: 3 }), commit: fc.boolean() }),
  fc.record({ kind: fc.constant('plain' as const), n: fc.integer({ min: 1, max: 4 }) }),
)

function toBatches(ops: readonly Op[]): BatchSummary[] {
  let next = 0n
  return ops.map((op) => {
    const n = op.kind === 'end' ? 1 : op.n
    const b: BatchSummary = {
      baseOffset: next,
      lastOffset: next + BigInt(n - 1),
      recordsCount: n,
      producerId: op.kind === 'plain' ? -1n : BigInt(op.pid),
      producerEpoch: 0,
      isTransactional: op.kind !== 'plain',
      isControl: op.kind === 'end',
      baseTimestamp: 0n,
      maxTimestamp: 0n,
      ...(op.kind === 'end'
        ? { control: { type: op.commit ? 1 : 0, typeName: op.commit ? 'COMMIT' : 'ABORT', coordinatorEpoch: 0 } }
        : {}),
    }
    next += BigInt(n)
    return b
  })
}

/** The visibility rule, as plainly as possible: offsets are indexes, one record = one offset. */
function tinyModel(ops: readonly Op[]): { rc: number; ru: number; lso: number } {
  const owner: Array<{ pid: number; txn: number } | 'plain' | 'marker'> = []
  const outcome = new Map<number, 'C' | 'A'>()
  const open = new Map<number, { id: number; first: number }>()
  let ids = 0
  for (const op of ops) {
    if (op.kind === 'plain') {
      for (let i = 0; i < op.n; i++) owner.push('plain')
      continue
    }
    if (op.kind === 'write') {
      let t = open.get(op.pid)
      if (t === undefined) {
        t = { id: ids++, first: owner.length }
        open.set(op.pid, t)
      }
      for (let i = 0; i < op.n; i++) owner.push({ pid: op.pid, txn: t.id })
      continue
    }
    const t = open.get(op.pid)
    if (t !== undefined) {
      outcome.set(t.id, op.commit ? 'C' : 'A')
      open.delete(op.pid)
    }
    owner.push('marker')
  }
  const lso = Math.min(owner.length, ...[...open.values()].map((t) => t.first))
  let rc = 0
  let ru = 0
  owner.forEach((o, offset) => {
    if (o === 'marker') return
    ru++
    if (offset < lso && (o === 'plain' || outcome.get(o.txn) === 'C')) rc++
  })
  return { rc, ru, lso }
}

function input(batches: BatchSummary[]): PartitionInput {
  return {
    topic: 't',
    partition: 0,
    logStartOffset: 0n,
    lastSegmentBaseOffset: 0n,
    batches,
    txnIndex: [],
    txnIndexAvailable: false,
    snapshots: [],
    checkpointHighWatermark: null,
    scanFindings: [],
  }
}

describe('visibility agrees with a tiny independent model', () => {
  it('random interleavings of producers', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const batches = toBatches(ops)
        const r = reconcilePartition(input(batches))
        const m = tinyModel(ops)
        expect(r.readUncommitted).toBe(m.ru)
        expect(r.readCommitted).toBe(m.rc)
        expect(Number(r.lastStableOffset)).toBe(m.lso)
        expect(r.readUncommitted).toBe(r.readCommitted + r.abortedRecords + r.pendingRecords)
      }),
      { numRuns: 500 },
    )
  })

  it('a consumer trusting a correct .txnindex reads exactly the marker truth', () => {
    fc.assert(
      fc.property(fc.array(opArb, { maxLength: 40 }), (ops) => {
        const batches = toBatches(ops)
        const r = reconcilePartition(input(batches), {}, { collectAbortedTxns: true })
        const idx = r.abortedTxns!
        expect(consumerReadCommitted(batches, idx, r.lastStableOffset)).toBe(r.readCommitted)
        const withIndex = reconcilePartition({ ...input(batches), txnIndex: idx, txnIndexAvailable: true })
        expect(withIndex.findings.filter((f) => f.severity !== 'info')).toEqual([])
      }),
      { numRuns: 500 },
    )
  })
})
