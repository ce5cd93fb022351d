#!/usr/bin/env node
// A broker log directory for `tsdump transactions` at scale: `n` transactions of `producers` transactional
// producers (transaction version 1: one epoch per producer, so every producer's transactions share one
// epoch and are joined through the coordinator's records), each writing one data batch to each of
// `perTxn` of `partitions` data partitions (orders-0..), its input offsets to __consumer_offsets-0 when
// `offsets` (TxnOffsetCommit: a transactional OffsetCommit record), then COMMIT (or, every `abortEvery`-th,
// ABORT) markers everywhere it wrote; the coordinator's records in __transaction_state-0: Ongoing with
// the partition list (AddPartitionsToTxn / AddOffsetsToTxn), Prepare*, then Complete* without partitions,
// as TransactionStateManager writes them. The producers run concurrently: a round of `producers`
// transactions writes all its data, then all its markers.
//
// Schemas (Kafka's TransactionLogKey/Value v0, OffsetCommitKey v1 / OffsetCommitValue v3): int16-prefixed
// strings, int32-prefixed arrays. Encoded with the fuzzer's own encoders, not src/decode.
//
//   node scripts/fuzz/txn-join-builder.mjs DIR N [producers=100] [partitions=24] [--no-offsets]
import * as fs from 'node:fs'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
import { FileWriter, batch, marker, record } from './encode.mjs'

const LOG = '00000000000000000000.log'
const BASE_TS = 1_700_000_000_000

const i16 = (v) => {
  const b = Buffer.alloc(2)
  b.writeInt16BE(v)
  return b
}
const i32 = (v) => {
  const b = Buffer.alloc(4)
  b.writeInt32BE(v)
  return b
}
const i64 = (v) => {
  const b = Buffer.alloc(8)
  b.writeBigInt64BE(BigInt(v))
  return b
}
const str = (s) => {
  const b = Buffer.from(s)
  return Buffer.concat([i16(b.length), b])
}

/** TransactionLogValue v0 */
function stateValue(pid, status, topics, ts, startTs) {
  const parts = [i32(topics.length), ...topics.flatMap(([t, ps]) => [str(t), i32(ps.length), ...ps.map(i32)])]
  return Buffer.concat([i16(0), i64(pid), i16(0), i32(60000), Buffer.from([status]), ...parts, i64(ts), i64(startTs)])
}

/** partitions of transaction i: perTxn distinct data partitions */
function partitionsOf(i, partitions, perTxn) {
  const out = []
  for (let k = 0; out.length < Math.min(perTxn, partitions); k++) {
    const p = (i * 7 + k * 5 + k * k) % partitions
    if (!out.includes(p)) out.push(p)
  }
  return out.sort((a, b) => a - b)
}

/** Writes the directory; returns what it wrote (for the caller's expectations). */
export function transactionsJoinDir(
  dir,
  { n, producers = 100, partitions = 24, perTxn = 2, offsets = true, abortEvery = 10 },
) {
  const open = (name) => {
    const p = path.join(dir, name)
    fs.mkdirSync(p, { recursive: true })
    return new FileWriter(path.join(p, LOG))
  }
  const data = Array.from({ length: partitions }, (_, p) => ({ w: open(`orders-${p}`), off: 0 }))
  const state = { w: open('__transaction_state-0'), off: 0 }
  const co = offsets ? { w: open('__consumer_offsets-0'), off: 0 } : null
  const put = (log, o, section) => {
    log.w.write(batch({ ...o, baseOffset: log.off }, section))
    log.off += o.count ?? 1
  }
  const putMarker = (log, o, type) => {
    log.w.write(marker({ ...o, baseOffset: log.off }, type))
    log.off += 1
  }
  const putState = (id, pid, status, topics, ts, startTs) =>
    put(
      state,
      { count: 1, baseTimestamp: ts },
      record({ key: Buffer.concat([i16(0), str(id)]), value: stateValue(pid, status, topics, ts, startTs) }),
    )
  const value = Buffer.from('v')
  let committed = 0
  for (let round = 0; round * producers < n; round++) {
    const txs = []
    for (let j = 0; j < producers && round * producers + j < n; j++) {
      const i = round * producers + j
      const pid = 1000 + j
      const t = BASE_TS + i * 10
      const parts = partitionsOf(i, partitions, perTxn)
      const topics = [['orders', parts], ...(co === null ? [] : [['__consumer_offsets', [0]]])]
      txs.push({ i, pid, t, parts, abort: abortEvery > 0 && i % abortEvery === abortEvery - 1 })
      putState(`app-${j}`, pid, 1, topics, t, t)
      const o = { producerId: pid, producerEpoch: 0, transactional: true, count: 1, baseTimestamp: t + 1 }
      for (const p of parts) put(data[p], { ...o, baseSequence: round }, record({ value }))
      if (co !== null) {
        const key = Buffer.concat([i16(1), str(`group-${j}`), str('input'), i32(j % 8)])
        const v = Buffer.concat([i16(3), i64(round + 1), i32(-1), str(''), i64(t + 2)])
        put(co, { ...o, baseTimestamp: t + 2 }, record({ key, value: v }))
      }
    }
    for (const x of txs) {
      const topics = [['orders', x.parts], ...(co === null ? [] : [['__consumer_offsets', [0]]])]
      putState(`app-${x.pid - 1000}`, x.pid, x.abort ? 3 : 2, topics, x.t + 5, x.t)
      const m = { producerId: x.pid, producerEpoch: 0, baseTimestamp: x.t + 6 }
      for (const p of x.parts) putMarker(data[p], m, x.abort ? 0 : 1)
      if (co !== null) putMarker(co, m, x.abort ? 0 : 1)
      putState(`app-${x.pid - 1000}`, x.pid, x.abort ? 5 : 4, [], x.t + 7, x.t)
      if (!x.abort) committed++
    }
  }
  for (const d of data) d.w.close()
  state.w.close()
  co?.w.close()
  return { transactions: n, committed, aborted: n - committed }
}

if (import.meta.url === pathToFileURL(process.argv[1] ?? '').href) {
  const args = process.argv.slice(2).filter((a) => a !== '--no-offsets')
  const [dir, n, producers, partitions] = args
  if (dir === undefined || n === undefined) {
    console.error('usage: txn-join-builder.mjs DIR N [producers] [partitions] [--no-offsets]')
    process.exit(2)
  }
  const r = transactionsJoinDir(dir, {
    n: Number(n),
    producers: Number(producers ?? 100),
    partitions: Number(partitions ?? 24),
    offsets: !process.argv.includes('--no-offsets'),
  })
  console.log(JSON.stringify(r))
}
