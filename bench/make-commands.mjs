// Inputs of bench/commands.mjs (issue #25 part 1 item 6): the shapes `transactions`, `cleanup`, `replicas` and the
// remote reads are benchmarked on. Synthetic, written with the fuzz harness's independent encoders
// (scripts/fuzz/encode.mjs: v2 batches from Kafka's "Message Format" docs, CRC-32C valid, offsets without gaps),
// because no broker writes 200,000 transactions or 1 GiB of one compacted partition in a bench's time. Each input is
// made once into its own directory and reused while its meta.json (the parameters) matches.
//
//   txnLogDir       a broker log directory: P data partitions bench-orders-N, 2 __consumer_offsets and 2
//                   __transaction_state partitions. Transaction i (transactional id txn-app-(i % ids), producer id
//                   1000 + (i % ids), epoch 0 as transaction version 1 keeps it) writes one data batch into two
//                   data partitions, a TxnOffsetCommit into its group's __consumer_offsets partition, then COMMIT
//                   markers (every abortEvery-th: ABORT) in all three; its coordinator writes Ongoing (the three
//                   partitions), PrepareCommit and CompleteCommit (or the Abort pair) into __transaction_state, as
//                   TransactionCoordinator does. With one epoch per producer the join goes through the
//                   coordinator's episodes (joinSharedEpoch), the heaviest of the three join paths.
//   compacted       one partition of `size` bytes in 4 segments (the last one active): batches of 50 records,
//                   keys key-N drawn from `keys` distinct keys (so ~size/130/keys copies of each), 100-byte values.
//   replicaBrokers  3 broker log directories (meta.properties node.id 1..3) with copies of P partitions of
//                   size/P bytes each, leader epoch 0 for the first half of each partition's batches and 1 after
//                   (leader-epoch-checkpoint to match). broker-2's copy of partition 0 lags (its first 3/4),
//                   broker-3's diverges: it stayed at epoch 0 past the half and wrote other records there (an
//                   unclean leader), so by Kafka's rule it diverges at the end offset of epoch 0.
//   tieredLayout    the tiered fixture (fixtures/broker-4.4/tiered: logs/ and LocalTieredStorage's remote/) copied,
//                   with tiered-0's last remote segment (start offset 9) replaced by `size` bytes of batches from
//                   offset 9 on; the metadata still gives its old end offset, so its offsets overlap the local log
//                   (tsdump remote says so), which does not change what a dump reads. Also a link of that object
//                   under a local segment name, for kafka-dump-log (it refuses remote names).
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { FileWriter, batch, crc32c, marker, record } from '../scripts/fuzz/encode.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')
const T0 = 1_700_000_000_000

export const segName = (offset) => `${String(offset).padStart(20, '0')}.log`
export const str16 = (s) => {
  const b = Buffer.from(s)
  const l = Buffer.alloc(2)
  l.writeInt16BE(b.length)
  return Buffer.concat([l, b])
}
export const i32 = (n) => {
  const b = Buffer.alloc(4)
  b.writeInt32BE(n)
  return b
}
export const i64 = (n) => {
  const b = Buffer.alloc(8)
  b.writeBigInt64BE(BigInt(n))
  return b
}

/**
 * A batch encoded once, then copied with its fields changed in place and its CRC-32C recomputed: encoding every
 * batch through encode.mjs (BigInt varints, a concat per field) took ~1 ms a transaction. Record bytes are
 * changed only where their length stays (fixed-width digits, int32/int64 fields), found by their placeholder.
 */
export class Template {
  constructor(buf) {
    this.tpl = buf
    this.buf = Buffer.from(buf)
  }
  /** the position of `needle` (a unique placeholder) in the batch */
  at(needle, from = 0) {
    const i = this.tpl.indexOf(needle, from)
    if (i < 0) throw new Error(`placeholder ${needle} not in template`)
    return i
  }
  /** the template's bytes with the header fields of `h`; patch(buf) changes record bytes; CRC last */
  fill(h, patch) {
    const b = this.buf
    this.tpl.copy(b)
    b.writeBigInt64BE(BigInt(h.baseOffset), 0)
    if (h.partitionLeaderEpoch !== undefined) b.writeInt32BE(h.partitionLeaderEpoch, 12)
    if (h.timestamp !== undefined) {
      b.writeBigInt64BE(BigInt(h.timestamp), 27)
      b.writeBigInt64BE(BigInt(h.timestamp), 35)
    }
    if (h.producerId !== undefined) b.writeBigInt64BE(BigInt(h.producerId), 43)
    if (h.baseSequence !== undefined) b.writeInt32BE(h.baseSequence, 53)
    patch?.(b)
    b.writeUInt32BE(crc32c(b.subarray(21)), 17)
    return b
  }
}
export const digits = (b, pos, n, width) => {
  b.write(String(n).padStart(width, '0'), pos, width, 'latin1')
}

/** Make `dir` with `make(dir)` unless it exists with the same parameters. Returns the stored meta. */
export function cached(dir, params, make, log) {
  const metaFile = `${dir}.meta.json`
  if (fs.existsSync(dir) && fs.existsSync(metaFile)) {
    const meta = JSON.parse(fs.readFileSync(metaFile, 'utf8'))
    if (JSON.stringify(meta.params) === JSON.stringify(params)) return meta
  }
  fs.rmSync(dir, { recursive: true, force: true })
  fs.rmSync(metaFile, { force: true })
  fs.mkdirSync(dir, { recursive: true })
  const t0 = Date.now()
  const stats = make(dir)
  const meta = { params, stats, seconds: (Date.now() - t0) / 1000, bytes: duBytes(dir) }
  fs.writeFileSync(metaFile, JSON.stringify(meta, null, 2) + '\n')
  log(
    `made ${path.relative(repo, dir)}: ${(meta.bytes / 2 ** 20).toFixed(1)} MiB in ${meta.seconds.toFixed(1)} s ${JSON.stringify(stats)}`,
  )
  return meta
}

export function duBytes(dir) {
  let n = 0
  for (const e of fs.readdirSync(dir, { withFileTypes: true })) {
    const p = path.join(dir, e.name)
    n += e.isDirectory() ? duBytes(p) : e.isFile() ? fs.statSync(p).size : 0
  }
  return n
}

/** One partition's log being written: offsets without gaps, a producer's sequence per partition. */
class PartitionLog {
  constructor(root, name) {
    fs.mkdirSync(path.join(root, name), { recursive: true })
    this.w = new FileWriter(path.join(root, name, segName(0)))
    this.offset = 0
    this.seq = new Map()
  }

  /** template t filled with these header fields at the next offset; `count` records, `sequenced` by the producer */
  append(t, h, count, patch) {
    if (h.producerId !== undefined && h.baseSequence === undefined && t.sequenced) {
      const seq = this.seq.get(h.producerId) ?? 0
      this.seq.set(h.producerId, seq + count)
      h.baseSequence = seq
    }
    this.w.write(t.fill({ ...h, baseOffset: this.offset }, patch))
    this.offset += count
  }

  close() {
    this.w.close()
  }
}

/** TransactionLogValue v0 (Kafka's TransactionLogValue.json): partitions as [[topic, [ids]]] */
export function txnStateValue(pid, status, partitions, ts, start) {
  const parts = partitions.flatMap(([topic, ids]) => [str16(topic), i32(ids.length), ...ids.map(i32)])
  const head = Buffer.alloc(17)
  head.writeBigInt64BE(BigInt(pid), 2)
  head.writeInt32BE(60000, 12)
  head[16] = status
  return Buffer.concat([head, i32(partitions.length), ...parts, i64(ts), i64(start)])
}

export const STATUS = { Ongoing: 1, PrepareCommit: 2, PrepareAbort: 3, CompleteCommit: 4, CompleteAbort: 5 }
export const PID = 0x0a0b0c0d0e0f1011n
export const TS = 0x0000011122233344n
export const TS2 = 0x0000015556667778n

/** the batches of txnLogDir as templates, with where their per-transaction fields are */
function txnTemplates(records) {
  const value = Buffer.alloc(40, 'v')
  const txn = { producerId: 0, producerEpoch: 0, baseSequence: 0, transactional: true }
  const data = new Template(
    batch(
      { ...txn, count: records },
      Buffer.concat(
        Array.from({ length: records }, (_, r) => record({ key: Buffer.from('k'), value, offsetDelta: r })),
      ),
    ),
  )
  data.sequenced = true
  const markers = [0, 1].map((type) => new Template(marker({ producerId: 0, producerEpoch: 0 }, type)))
  // OffsetCommitKey v1 {group, topic, partition} / OffsetCommitValue v3 {offset, leaderEpoch, metadata, commitTimestamp}
  const okey = Buffer.concat([Buffer.from([0, 1]), str16('group-00'), str16('bench-input'), i32(0)])
  const ovalue = Buffer.concat([Buffer.from([0, 3]), i64(PID), i32(-1), str16(''), i64(TS)])
  const commit = new Template(batch({ ...txn, count: 1 }, record({ key: okey, value: ovalue })))
  commit.sequenced = true
  const stateKey = Buffer.concat([Buffer.from([0, 0]), str16('txn-app-000000')])
  const listed = [
    ['bench-orders', [0x51, 0x52]],
    ['__consumer_offsets', [0x53]],
  ]
  const state = (partitions) =>
    new Template(batch({ count: 1 }, record({ key: stateKey, value: txnStateValue(PID, 0x7f, partitions, TS, TS2) })))
  return { data, markers, commit, ongoing: state(listed), complete: state([]) }
}

export function txnLogDir(dir, { transactions, partitions = 8, ids = 1000, abortEvery = 10, records = 2 }, log) {
  return cached(
    dir,
    { transactions, partitions, ids, abortEvery, records },
    () => {
      const data = Array.from({ length: partitions }, (_, p) => new PartitionLog(dir, `bench-orders-${p}`))
      const offsets = [0, 1].map((c) => new PartitionLog(dir, `__consumer_offsets-${c}`))
      const states = [0, 1].map((s) => new PartitionLog(dir, `__transaction_state-${s}`))
      const T = txnTemplates(records)
      const okey = T.commit.at('group-') + 6
      const opart = T.commit.at('bench-input') + 11
      const ooff = T.commit.at(i64(PID))
      const ots = T.commit.at(i64(TS))
      const pos = (t) => ({
        id: t.at('txn-app-') + 8,
        pid: t.at(i64(PID)),
        status: t.at(i64(PID)) + 14,
        ts: t.at(i64(TS)),
        start: t.at(i64(TS2)),
      })
      const on = {
        ...pos(T.ongoing),
        p0: T.ongoing.at('bench-orders') + 16,
        c: T.ongoing.at('__consumer_offsets') + 22,
      }
      const done = pos(T.complete)
      for (let i = 0; i < transactions; i++) {
        const id = i % ids
        const pid = 1000 + id
        const t = T0 + i * 10
        const commit = abortEvery === 0 || i % abortEvery !== abortEvery - 1
        // two data partitions, always distinct
        const p1 = i % partitions
        const p2 = (p1 + 1 + (i % (partitions - 1))) % partitions
        const ps = [Math.min(p1, p2), Math.max(p1, p2)]
        const c = id % 2
        const coordinator = states[id % 2]
        const state = (tpl, at, status, ts) =>
          coordinator.append(tpl, { timestamp: ts }, 1, (b) => {
            digits(b, at.id, id, 6)
            b.writeBigInt64BE(BigInt(pid), at.pid)
            b[at.status] = status
            b.writeBigInt64BE(BigInt(ts), at.ts)
            b.writeBigInt64BE(BigInt(t), at.start)
            if (tpl === T.ongoing) {
              b.writeInt32BE(ps[0], at.p0)
              b.writeInt32BE(ps[1], at.p0 + 4)
              b.writeInt32BE(c, at.c)
            }
          })
        state(T.ongoing, on, STATUS.Ongoing, t)
        for (const p of ps) data[p].append(T.data, { producerId: pid, timestamp: t + 1 }, records)
        offsets[c].append(T.commit, { producerId: pid, timestamp: t + 2 }, 1, (b) => {
          digits(b, okey, id % 50, 2)
          b.writeInt32BE(id % partitions, opart)
          b.writeBigInt64BE(BigInt(i), ooff)
          b.writeBigInt64BE(BigInt(t + 2), ots)
        })
        state(T.ongoing, on, commit ? STATUS.PrepareCommit : STATUS.PrepareAbort, t + 4)
        for (const l of [data[ps[0]], data[ps[1]], offsets[c]])
          l.append(T.markers[commit ? 1 : 0], { producerId: pid, timestamp: t + 5 }, 1)
        state(T.complete, done, commit ? STATUS.CompleteCommit : STATUS.CompleteAbort, t + 6)
      }
      for (const l of [...data, ...offsets, ...states]) l.close()
      return {
        transactions,
        dataBatches: data.reduce((n, l) => n + l.offset, 0),
        coordinatorRecords: states.reduce((n, l) => n + l.offset, 0),
      }
    },
    log,
  )
}

/** a small deterministic generator (xorshift32): the same input on every machine */
export function rng(seed) {
  let x = seed >>> 0 || 1
  return () => {
    x ^= x << 13
    x >>>= 0
    x ^= x >>> 17
    x ^= x << 5
    x >>>= 0
    return x
  }
}

export function compacted(dir, { size, keys = 200_000, segments = 4 }, log) {
  return cached(
    dir,
    { size, keys, segments },
    () => {
      const part = path.join(dir, 'bench-compact-0')
      fs.mkdirSync(part, { recursive: true })
      const next = rng(25)
      const value = Buffer.alloc(100, 'x')
      const t = new Template(
        batch(
          { count: 50 },
          Buffer.concat(
            Array.from({ length: 50 }, (_, r) => record({ key: Buffer.from('key-0000000'), value, offsetDelta: r })),
          ),
        ),
      )
      const keyAt = []
      while (keyAt.length < 50) keyAt.push(t.at('key-', (keyAt.at(-1) ?? -1) + 1) + 4)
      let offset = 0
      let written = 0
      let w = null
      const perSegment = Math.ceil(size / segments)
      while (written + t.tpl.length <= size) {
        if (w === null || w.pos + w.n >= perSegment) {
          w?.close()
          w = new FileWriter(path.join(part, segName(offset)))
        }
        w.write(
          t.fill({ baseOffset: offset, timestamp: T0 + offset }, (b) => {
            for (const k of keyAt) digits(b, k, next() % keys, 7)
          }),
        )
        written += t.tpl.length
        offset += 50
      }
      w.close()
      return { records: offset, keys, segments: fs.readdirSync(part).length }
    },
    log,
  )
}

/** batches of 20 records of 80-byte values (`fill` the value bytes), `epoch` each: [from batch, epoch] steps */
function replicaTemplate(fill) {
  return new Template(
    batch(
      { count: 20 },
      Buffer.concat(
        Array.from({ length: 20 }, (_, r) =>
          record({ key: Buffer.from('k'), value: Buffer.alloc(80, fill), offsetDelta: r }),
        ),
      ),
    ),
  )
}

/** one partition's batches: epoch 0 up to batch `half`, then `tailEpoch`; other values past the half when `other` */
function writeReplica(file, upTo, half, { tailEpoch, other = false }) {
  const w = new FileWriter(file)
  const same = replicaTemplate('r')
  const diff = other ? replicaTemplate('u') : same
  for (let i = 0; i < upTo; i++) {
    w.write(
      (i < half ? same : diff).fill({
        baseOffset: i * 20,
        partitionLeaderEpoch: i < half ? 0 : tailEpoch,
        timestamp: T0 + i,
      }),
    )
  }
  w.close()
}

const epochCheckpoint = (entries) => `0\n${entries.length}\n${entries.map(([e, o]) => `${e} ${o}`).join('\n')}\n`

export function replicaBrokers(dir, { size, partitions = 4 }, log) {
  return cached(
    dir,
    { size, partitions },
    () => {
      const nBatches = Math.max(4, Math.floor(size / partitions / replicaTemplate('r').tpl.length))
      const half = Math.floor(nBatches / 2)
      for (const b of [1, 2, 3]) {
        const root = path.join(dir, `broker-${b}`)
        fs.mkdirSync(root, { recursive: true })
        fs.writeFileSync(
          path.join(root, 'meta.properties'),
          `version=1\nnode.id=${b}\ncluster.id=dHNkdW1wLWJlbmNoLXJlcGxpY2Fz\n`,
        )
        for (let p = 0; p < partitions; p++) {
          const part = path.join(root, `bench-replicated-${p}`)
          fs.mkdirSync(part, { recursive: true })
          const file = path.join(part, segName(0))
          const diverged = b === 3 && p === 0
          if (b === 1) writeReplica(file, nBatches, half, { tailEpoch: 1 })
          else if (diverged) writeReplica(file, nBatches, half, { tailEpoch: 0, other: true })
          else if (b === 2 && p === 0) writeReplica(file, Math.floor((nBatches * 3) / 4), half, { tailEpoch: 1 })
          else fs.copyFileSync(path.join(dir, 'broker-1', `bench-replicated-${p}`, segName(0)), file)
          fs.writeFileSync(
            path.join(part, 'leader-epoch-checkpoint'),
            epochCheckpoint(
              diverged
                ? [[0, 0]]
                : [
                    [0, 0],
                    [1, half * 20],
                  ],
            ),
          )
        }
      }
      return { partitions, batchesPerPartition: nBatches, divergesAt: half * 20 }
    },
    log,
  )
}

/**
 * 3 broker log directories with one partition of `batches` batches of one small record each (the shape of a
 * busy low-volume partition): broker-1 leads (epoch 0, then 1 from the half), broker-2 is its copy, broker-3
 * stayed at epoch 0 past the half with other records (it diverges at the half: `batches`/2 batches past it).
 */
export function smallBatchReplicas(dir, { batches }, log) {
  return cached(
    dir,
    { batches },
    () => {
      const tpl = (fill) =>
        new Template(
          batch({ count: 1 }, record({ key: Buffer.from('k'), value: Buffer.alloc(8, fill), offsetDelta: 0 })),
        )
      const half = Math.floor(batches / 2)
      for (const b of [1, 2, 3]) {
        const part = path.join(dir, `broker-${b}`, 'bench-small-0')
        fs.mkdirSync(part, { recursive: true })
        fs.writeFileSync(
          path.join(dir, `broker-${b}`, 'meta.properties'),
          `version=1\nnode.id=${b}\ncluster.id=dHNkdW1wLWJlbmNoLXJlcGxpY2Fz\n`,
        )
        const same = tpl('r')
        const other = b === 3 ? tpl('u') : same
        const w = new FileWriter(path.join(part, segName(0)))
        for (let i = 0; i < batches; i++)
          w.write(
            (i < half ? same : other).fill({
              baseOffset: i,
              partitionLeaderEpoch: i < half || b === 3 ? 0 : 1,
              timestamp: T0 + i,
            }),
          )
        w.close()
        fs.writeFileSync(
          path.join(part, 'leader-epoch-checkpoint'),
          epochCheckpoint(
            b === 3
              ? [[0, 0]]
              : [
                  [0, 0],
                  [1, half],
                ],
          ),
        )
      }
      return { batches, divergesAt: half }
    },
    log,
  )
}

export const TIERED_FIXTURE = path.join(repo, 'fixtures', 'broker-4.4', 'tiered')

export function tieredLayout(dir, { size }, log) {
  return cached(
    dir,
    { size },
    () => {
      fs.cpSync(path.join(TIERED_FIXTURE, 'logs'), path.join(dir, 'logs'), { recursive: true })
      fs.cpSync(path.join(TIERED_FIXTURE, 'remote'), path.join(dir, 'remote'), { recursive: true })
      const remoteDir = path.join(dir, 'remote', 'kafka-tiered-storage')
      const part = fs.readdirSync(remoteDir).find((d) => /^tiered-0-/.test(d))
      const object = fs
        .readdirSync(path.join(remoteDir, part))
        .find((f) => f.startsWith('00000000000000000009-') && f.endsWith('.log'))
      const file = path.join(remoteDir, part, object)
      const w = new FileWriter(file)
      const t = replicaTemplate('t')
      let offset = 9
      while (w.pos + w.n + t.tpl.length <= size) {
        w.write(t.fill({ baseOffset: offset, timestamp: T0 + offset }))
        offset += 20
      }
      w.close()
      // kafka-dump-log takes only local segment names: the same bytes under one
      const asLocal = path.join(dir, 'as-local', 'tiered-0')
      fs.mkdirSync(asLocal, { recursive: true })
      fs.linkSync(file, path.join(asLocal, segName(9)))
      return { object: path.relative(dir, file), records: offset - 9, objectBytes: fs.statSync(file).size }
    },
    log,
  )
}
