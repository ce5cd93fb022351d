// Which __transaction_state partition coordinates a transactional id:
// TransactionStateManager.partitionFor = Utils.abs(transactionalId.hashCode) % transactionTopicPartitionCount,
// where Utils.abs(Integer.MIN_VALUE) = 0 (unlike Math.abs) and String.hashCode runs over UTF-16 code units.

/** Java String.hashCode: s[0]*31^(n-1) + ... + s[n-1], in 32-bit two's complement. */
export function javaStringHashCode (s: string): number {
  let h = 0
  for (let i = 0; i < s.length; i++) h = (Math.imul(h, 31) + s.charCodeAt(i)) | 0
  return h
}

/** Kafka's Utils.abs */
export function kafkaAbs (n: number): number {
  return n === -2147483648 ? 0 : Math.abs(n)
}

/** The __transaction_state partition of a transactional id. */
export function transactionStatePartitionFor (transactionalId: string, partitionCount: number): number {
  return kafkaAbs(javaStringHashCode(transactionalId)) % partitionCount
}
