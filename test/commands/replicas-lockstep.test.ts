// replicas walks the copies of a partition in lockstep and keeps nothing per batch past the divergence point but
// what it lists (the first BATCHES_LISTED batches; the rest counted, and the output says so). Three copies of a
// partition of small batches (bench/make-commands.mjs smallBatchReplicas: broker-3 stayed at epoch 0 past the
// half and wrote other records there), checked against the generator's own layout and an independent walk of the
// raw batches (v2 layout: baseOffset int64 @0, batchLength int32 @8, partitionLeaderEpoch int32 @12, crc @17).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { smallBatchReplicas } from '../../bench/make-commands.mjs'
import { runCli } from '../support/run-cli.js'

function rawBatches(file: string): Array<{ base: number; epoch: number; crc: number }> {
  const buf = fs.readFileSync(file)
  const out: Array<{ base: number; epoch: number; crc: number }> = []
  for (let pos = 0; pos + 12 <= buf.length; pos += 12 + buf.readInt32BE(pos + 8)) {
    out.push({
      base: Number(buf.readBigInt64BE(pos)),
      epoch: buf.readInt32BE(pos + 12),
      crc: buf.readUInt32BE(pos + 17),
    })
  }
  return out
}

interface Replica {
  broker: number
  isLeader: boolean
  divergenceOffset: number | null
  recordsPastDivergence: number
  batchesPastDivergence: Array<{ baseOffset: number }>
  batchesPastDivergenceOmitted?: number
}

describe('replicas in lockstep', () => {
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-lockstep-'))
  afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))
  const batches = 5000
  const dir = path.join(tmp, 'small')
  smallBatchReplicas(dir, { batches }, () => {})
  const brokers = [1, 2, 3].map((b) => path.join(dir, `broker-${b}`))

  it('the diverging copy: the point the raw batches give, every batch past it counted, the first 1000 listed, the rest said', async () => {
    const seg = (b: number): string => path.join(dir, `broker-${b}`, 'bench-small-0', '00000000000000000000.log')
    const leader = rawBatches(seg(1))
    const mine = rawBatches(seg(3))
    const at = mine.findIndex((b, i) => b.crc !== leader[i]!.crc || b.epoch !== leader[i]!.epoch)
    expect(at).toBe(batches / 2)
    const r = await runCli(['replicas', '--json', ...brokers])
    expect(r.code).toBe(1)
    const reps = (JSON.parse(r.stdout) as { partitions: Array<{ replicas: Replica[] }> }).partitions[0]!.replicas
    const b3 = reps.find((x) => x.broker === 3)!
    expect(b3.divergenceOffset).toBe(mine[at]!.base)
    expect(b3.recordsPastDivergence).toBe(mine.length - at)
    expect(b3.batchesPastDivergence.map((b) => b.baseOffset)).toEqual(mine.slice(at, at + 1000).map((b) => b.base))
    expect(b3.batchesPastDivergenceOmitted).toBe(mine.length - at - 1000)
    expect(reps.find((x) => x.broker === 2)!.divergenceOffset).toBeNull()
    const text = await runCli(['replicas', ...brokers])
    expect(text.stdout).toContain(`… ${mine.length - at - 20} more batches (--json lists the first 1000)`)
    expect(text.stdout.replace(/\s+/g, ' ')).toContain(
      `${mine.length - at} records in ${mine.length - at} batches past it`,
    )
  })
})
