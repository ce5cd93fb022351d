import { describe, expect, it } from 'vitest'
import { javaStringHashCode, kafkaAbs, transactionStatePartitionFor } from '../../src/analysis/coordinator.js'

describe('__transaction_state partition of a transactional id', () => {
  it('matches Java String.hashCode', () => {
    expect(javaStringHashCode('')).toBe(0)
    expect(javaStringHashCode('a')).toBe(97)
    expect(javaStringHashCode('hello')).toBe(99162322)
    expect(javaStringHashCode('tx-rw-1')).toBe(-943186862)
    // "polygenelubricants".hashCode() == Integer.MIN_VALUE
    expect(javaStringHashCode('polygenelubricants')).toBe(-2147483648)
  })

  it('uses Utils.abs (MIN_VALUE → 0), not a bit mask', () => {
    expect(kafkaAbs(-2147483648)).toBe(0)
    expect(kafkaAbs(-1)).toBe(1)
    expect(transactionStatePartitionFor('polygenelubricants', 50)).toBe(0)
    expect(transactionStatePartitionFor('tx-rw-1', 50)).toBe(12)
    expect(transactionStatePartitionFor('tx-rw-1', 3)).toBe(2)
  })
})
