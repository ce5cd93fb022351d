// Inputs of issue #34's scale classes: checkpoints of millions of lines and replicas of millions of small batches.
// Written from the formats (Kafka's CheckpointFile: version, count, entries; the v2 batch layout, whose base
// offset and partition leader epoch lie outside the CRC, so one encoded batch is copied and patched).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { FileWriter, batch, crc32c, record } from './encode.mjs'

const LOG = '00000000000000000000.log'

/** A checkpoint declaring `declared` entries (default: the lines given): `n` copies of `line`, then `tail` lines. */
export function checkpointFile(file, n, line, tail = [], declared = n + tail.length) {
  const one = Buffer.from(line + '\n')
  const body = Buffer.allocUnsafe(n * one.length)
  for (let i = 0; i < n; i++) one.copy(body, i * one.length)
  fs.writeFileSync(
    file,
    Buffer.concat([Buffer.from(`0\n${declared}\n`), body, Buffer.from(tail.map((l) => l + '\n').join(''))]),
  )
}

/**
 * Three broker log directories (broker-1..3, meta.properties node.id 1..3), each with a copy of `scale-0` of `n`
 * one-record batches: broker-1 leads (epoch 0, then 1 from the half), broker-2 is its copy, broker-3 stayed at
 * epoch 0 past the half and wrote other records there: by Kafka's epoch rule it diverges at offset n/2.
 */
export function replicaCopies(dir, n) {
  const half = Math.floor(n / 2)
  const one = (fill) =>
    batch(
      { baseOffset: 0, count: 1, baseTimestamp: 1700000000000 },
      record({ key: Buffer.from('k'), value: Buffer.alloc(8, fill) }),
    )
  const dirs = []
  for (const b of [1, 2, 3]) {
    const root = path.join(dir, `broker-${b}`)
    const part = path.join(root, 'scale-0')
    fs.mkdirSync(part, { recursive: true })
    fs.writeFileSync(
      path.join(root, 'meta.properties'),
      `version=1\nnode.id=${b}\ncluster.id=dHNkdW1wLXNjYWxlLXJlcGxpY2Fz\n`,
    )
    const same = one('r')
    const other = b === 3 ? one('u') : same
    const w = new FileWriter(path.join(part, LOG))
    for (let i = 0; i < n; i++) {
      const t = Buffer.from(i < half ? same : other)
      t.writeBigInt64BE(BigInt(i), 0)
      t.writeInt32BE(i < half || b === 3 ? 0 : 1, 12)
      w.write(t)
    }
    w.close()
    fs.writeFileSync(path.join(part, 'leader-epoch-checkpoint'), b === 3 ? '0\n1\n0 0\n' : `0\n2\n0 0\n1 ${half}\n`)
    dirs.push(root)
  }
  return dirs
}

/**
 * One compacted partition whose first segment holds `n` records of `n` distinct 8-byte keys (k0000000.. in batches
 * of 100, one-byte values, offsets 0..n-1) and whose second, active segment one more batch: the dirty section is the
 * first segment, every key in the cleaner's offset map once. One batch is encoded, then copied with its keys and
 * base offset patched and its CRC-32C (attributes..end) recomputed.
 */
export function distinctKeysPartition(part, n) {
  fs.mkdirSync(part, { recursive: true })
  const per = 100
  const tpl = batch(
    { baseOffset: 0, count: per, baseTimestamp: 1700000000000 },
    Buffer.concat(
      Array.from({ length: per }, (_, r) =>
        record({ key: Buffer.from('k0000000'), value: Buffer.from('v'), offsetDelta: r }),
      ),
    ),
  )
  const at = []
  for (let i = tpl.indexOf('k0000000'); i >= 0; i = tpl.indexOf('k0000000', i + 1)) at.push(i + 1)
  const w = new FileWriter(path.join(part, LOG))
  const b = Buffer.from(tpl)
  for (let base = 0; base < n; base += per) {
    const count = Math.min(per, n - base)
    const one =
      count === per
        ? b
        : batch(
            { baseOffset: 0, count, baseTimestamp: 1700000000000 },
            Buffer.concat(
              Array.from({ length: count }, (_, r) =>
                record({ key: Buffer.from('k0000000'), value: Buffer.from('v'), offsetDelta: r }),
              ),
            ),
          )
    for (let r = 0; r < count; r++) one.write(String(base + r).padStart(7, '0'), at[r], 7, 'latin1')
    one.writeBigInt64BE(BigInt(base), 0)
    one.writeUInt32BE(crc32c(one.subarray(21)), 17)
    w.write(one)
  }
  w.close()
  const active = batch(
    { baseOffset: n, count: 1, baseTimestamp: 1700000000000 },
    record({ key: Buffer.from('k0000000'), value: Buffer.from('v') }),
  )
  fs.writeFileSync(path.join(part, `${String(n).padStart(20, '0')}.log`), active)
}
