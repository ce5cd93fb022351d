// The fields of a partition of `reconcile --json` the big tier's tests check against their generators' counts.
export interface ReconcilePartitionJson {
  topic: string
  partition: number
  logEndOffset: number
  readCommitted: number
  readUncommitted: number
  findings: Array<{ code: string; severity: string; message: string }>
}
