#!/usr/bin/env node
// The production-scale input of `transactions`, `lso`, `txns` and `reconcile`: a broker log directory of 50 data
// partitions (scale-N), 4 __consumer_offsets and 4 __transaction_state partitions holding N transactions of 1-20
// records over 1-4 data partitions each. Synthetic (no broker writes a million transactions in a bench's time),
// written with the fuzz harness's independent encoders (scripts/fuzz/encode.mjs, through make-commands.mjs'
// templates: v2 batches, CRC-32C valid, offsets without gaps). Per transaction, as TransactionCoordinator and a
// read-process-write producer write them:
//   __transaction_state  Ongoing (every partition it writes and its group's __consumer_offsets partition), then
//                        PrepareCommit/PrepareAbort, then CompleteCommit/CompleteAbort (the same partitions);
//   data partitions      one transactional batch each (the records split over them);
//   __consumer_offsets   a TxnOffsetCommit (sendOffsetsToTransaction) of its group for its input partition;
//   markers              COMMIT (every `abortEvery`-th transaction ABORT) in each of those partitions.
// Transactional id i % ids (producer id 5000 + id). Even ids use transaction version 1 (one epoch for every
// transaction: the coordinator's episodes join them), odd ids version 2 (KIP-890: the markers and the Prepare*
// record carry the data epoch + 1, the next transaction's data that epoch). The last transaction of the first
// `open` ids is left open (data, commit and Ongoing only: a transaction still running when the copy was made).
// With `slices` > 1 every partition rolls a new segment after each N/slices transactions (no transaction spans two),
// so slice k is segment k of every partition: the data cut into slices, each a valid log directory on its own.
//
// usage: node bench/make-scale.mjs --out DIR --transactions 100000 [--ids 1000] [--abort-every 10] [--open 3]
//          [--slices 1] [--seed 34]
// Memory: one 8 MiB staging buffer per partition file.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileWriter, batch, marker, record } from '../scripts/fuzz/encode.mjs'
import {
  PID,
  STATUS,
  TS,
  TS2,
  Template,
  cached,
  digits,
  i32,
  i64,
  rng,
  segName,
  str16,
  txnStateValue,
} from './make-commands.mjs'

const T0 = 1_700_000_000_000
export const SCALE_TOPIC = 'scale'
export const SCALE_PARTITIONS = 50
const OFFSETS_PARTITIONS = 4
const STATE_PARTITIONS = 4

/** One partition's log being written: offsets without gaps, a producer's sequence per partition, segments rolled on demand. */
class ScaleLog {
  constructor(root, name) {
    this.dir = path.join(root, name)
    fs.mkdirSync(this.dir, { recursive: true })
    this.offset = 0
    this.seq = new Map()
    this.w = new FileWriter(path.join(this.dir, segName(0)))
  }

  roll() {
    this.w.close()
    this.w = new FileWriter(path.join(this.dir, segName(this.offset)))
  }

  append(t, h, count, patch) {
    let seq = -1
    if (t.sequenced) {
      seq = this.seq.get(h.producerId) ?? 0
      this.seq.set(h.producerId, (seq + count) % 2 ** 31)
    }
    this.w.write(
      t.fill({ ...h, baseOffset: this.offset, ...(t.sequenced ? { baseSequence: seq } : {}) }, (b) => {
        if (h.epoch !== undefined) b.writeInt16BE(h.epoch, 51)
        patch?.(b)
      }),
    )
    this.offset += count
  }

  close() {
    this.w.close()
  }
}

function templates() {
  const value = Buffer.alloc(40, 'v')
  const txn = { producerId: 0, producerEpoch: 0, baseSequence: 0, transactional: true }
  const data = [null]
  for (let n = 1; n <= 20; n++) {
    const t = new Template(
      batch(
        { ...txn, count: n },
        Buffer.concat(Array.from({ length: n }, (_, r) => record({ key: Buffer.from('k'), value, offsetDelta: r }))),
      ),
    )
    t.sequenced = true
    data.push(t)
  }
  const markers = [0, 1].map((type) => new Template(marker({ producerId: 0, producerEpoch: 0 }, type)))
  // OffsetCommitKey v1 {group, topic, partition} / OffsetCommitValue v3 {offset, leaderEpoch, metadata, commitTimestamp}
  const okey = Buffer.concat([Buffer.from([0, 1]), str16('group-00'), str16('scale-input'), i32(0)])
  const ovalue = Buffer.concat([Buffer.from([0, 3]), i64(PID), i32(-1), str16(''), i64(TS)])
  const commit = new Template(batch({ ...txn, count: 1 }, record({ key: okey, value: ovalue })))
  commit.sequenced = true
  const stateKey = Buffer.concat([Buffer.from([0, 0]), str16('scale-app-000000')])
  // Ongoing/Prepare*: k data partitions (k = 1..4) and one __consumer_offsets partition; Complete*: none
  const state = (partitions) =>
    new Template(batch({ count: 1 }, record({ key: stateKey, value: txnStateValue(PID, 0x7f, partitions, TS, TS2) })))
  const listing = [null]
  for (let k = 1; k <= 4; k++)
    listing.push(
      Object.assign(
        state([
          [SCALE_TOPIC, Array.from({ length: k }, (_, i) => 0x51 + i)],
          ['__consumer_offsets', [0x61]],
        ]),
        { k },
      ),
    )
  return { data, markers, commit, listing, complete: state([]) }
}

/** the log directory `dir` of `transactions` transactions (see the head of this file); returns its meta */
export function scaleLogDir(
  dir,
  { transactions, ids = 1000, abortEvery = 10, open = 3, slices = 1, seed = 34 },
  log = () => {},
) {
  return cached(
    dir,
    { transactions, ids, abortEvery, open, slices, seed },
    () => {
      const data = Array.from({ length: SCALE_PARTITIONS }, (_, p) => new ScaleLog(dir, `${SCALE_TOPIC}-${p}`))
      const offsets = Array.from({ length: OFFSETS_PARTITIONS }, (_, c) => new ScaleLog(dir, `__consumer_offsets-${c}`))
      const states = Array.from({ length: STATE_PARTITIONS }, (_, s) => new ScaleLog(dir, `__transaction_state-${s}`))
      const T = templates()
      const okey = T.commit.at('group-') + 6
      const opart = T.commit.at('scale-input') + 11
      const ooff = T.commit.at(i64(PID))
      const ots = T.commit.at(i64(TS))
      const pos = (t) => ({
        id: t.at('scale-app-') + 10,
        pid: t.at(i64(PID)),
        status: t.at(i64(PID)) + 14,
        ts: t.at(i64(TS)),
        start: t.at(i64(TS2)),
      })
      const at = T.listing.map((t) =>
        t === null
          ? null
          : {
              ...pos(t),
              p0: t.at(Buffer.concat([str16(SCALE_TOPIC), i32(t.k)])) + 2 + SCALE_TOPIC.length + 4,
              c: t.at('__consumer_offsets') + 22,
            },
      )
      const done = pos(T.complete)
      const next = rng(seed)
      const epochs = new Int16Array(ids)
      const perSlice = Math.ceil(transactions / slices)
      const lastOf = (id) => transactions - 1 - ((transactions - 1 - id) % ids)
      let records = 0
      let aborted = 0
      let opened = 0
      // the generator's own count of what txns lists (a run per partition a transaction wrote, by outcome) and of
      // the partitions whose LSO the open transactions hold (lso's blocked partitions)
      const runs = { committed: 0, aborted: 0, open: 0 }
      const openPartitions = new Set()
      for (let i = 0; i < transactions; i++) {
        if (i > 0 && i % perSlice === 0) for (const l of [...data, ...offsets, ...states]) l.roll()
        const id = i % ids
        const pid = 5000 + id
        const tv2 = id % 2 === 1
        const epoch = epochs[id]
        const end = tv2 ? epoch + 1 : epoch
        const t = T0 + i * 10
        const leftOpen = id < open && i === lastOf(id) && i >= ids
        const commit = abortEvery === 0 || i % abortEvery !== abortEvery - 1
        // 1-20 records over 1-4 distinct partitions (never more partitions than records)
        const n = 1 + (next() % 20)
        const k = 1 + (next() % Math.min(4, n))
        const ps = []
        while (ps.length < k) {
          const p = next() % SCALE_PARTITIONS
          if (!ps.includes(p)) ps.push(p)
        }
        ps.sort((a, b) => a - b)
        const c = id % OFFSETS_PARTITIONS
        const coordinator = states[id % STATE_PARTITIONS]
        const state = (tpl, where, status, ts, ep) =>
          coordinator.append(tpl, { timestamp: ts }, 1, (b) => {
            digits(b, where.id, id, 6)
            b.writeBigInt64BE(BigInt(pid), where.pid)
            b.writeInt16BE(ep, where.pid + 8)
            b[where.status] = status
            b.writeBigInt64BE(BigInt(ts), where.ts)
            b.writeBigInt64BE(BigInt(t), where.start)
            if (where.p0 !== undefined) {
              ps.forEach((p, j) => b.writeInt32BE(p, where.p0 + 4 * j))
              b.writeInt32BE(c, where.c)
            }
          })
        state(T.listing[k], at[k], STATUS.Ongoing, t, epoch)
        ps.forEach((p, j) => {
          const count = Math.floor(n / k) + (j < n % k ? 1 : 0)
          data[p].append(T.data[count], { producerId: pid, epoch, timestamp: t + 1 }, count)
        })
        records += n
        offsets[c].append(T.commit, { producerId: pid, epoch, timestamp: t + 2 }, 1, (b) => {
          digits(b, okey, id % 50, 2)
          b.writeInt32BE(id % SCALE_PARTITIONS, opart)
          b.writeBigInt64BE(BigInt(i), ooff)
          b.writeBigInt64BE(BigInt(t + 2), ots)
        })
        if (leftOpen) {
          opened++
          runs.open += k + 1
          for (const p of ps) openPartitions.add(`${SCALE_TOPIC}-${p}`)
          openPartitions.add(`__consumer_offsets-${c}`)
          continue
        }
        if (!commit) aborted++
        runs[commit ? 'committed' : 'aborted'] += k + 1
        state(T.listing[k], at[k], commit ? STATUS.PrepareCommit : STATUS.PrepareAbort, t + 4, end)
        for (const l of [...ps.map((p) => data[p]), offsets[c]])
          l.append(T.markers[commit ? 1 : 0], { producerId: pid, epoch: end, timestamp: t + 5 }, 1)
        state(T.complete, done, commit ? STATUS.CompleteCommit : STATUS.CompleteAbort, t + 6, end)
        epochs[id] = end
      }
      for (const l of [...data, ...offsets, ...states]) l.close()
      return { transactions, records, aborted, open: opened, slices, runs, openPartitions: [...openPartitions].sort() }
    },
    log,
  )
}

/** slice k of a log directory made with `slices` > 1: segment k of every partition, linked into `out` */
export function linkSlice(dir, k, out) {
  for (const name of fs.readdirSync(dir)) {
    const from = path.join(dir, name)
    if (!fs.statSync(from).isDirectory()) continue
    const segs = fs
      .readdirSync(from)
      .filter((f) => f.endsWith('.log'))
      .sort()
    if (segs[k] === undefined) continue
    fs.mkdirSync(path.join(out, name), { recursive: true })
    fs.linkSync(path.join(from, segs[k]), path.join(out, name, segs[k]))
  }
}

function arg(name, dflt) {
  const i = process.argv.indexOf(`--${name}`)
  return i >= 0 ? process.argv[i + 1] : dflt
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  const out = arg('out')
  if (out === undefined) {
    console.error(
      'usage: node bench/make-scale.mjs --out DIR --transactions N [--ids 1000] [--abort-every 10] [--open 3] [--slices 1] [--seed 34]',
    )
    process.exit(2)
  }
  const meta = scaleLogDir(
    path.resolve(out),
    {
      transactions: Number(arg('transactions', 100_000)),
      ids: Number(arg('ids', 1000)),
      abortEvery: Number(arg('abort-every', 10)),
      open: Number(arg('open', 3)),
      slices: Number(arg('slices', 1)),
      seed: Number(arg('seed', 34)),
    },
    (m) => console.error(m),
  )
  console.log(JSON.stringify(meta))
}
