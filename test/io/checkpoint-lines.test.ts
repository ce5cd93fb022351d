// Checkpoint files are a few short lines per partition (Kafka CheckpointFile). A damaged one with an enormous
// line (issue #25: 16 MiB in one line cost reconcile 168 MiB and 8 s) is refused before the line becomes a string.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { parseOffsetCheckpoint } from '../../src/io/checkpoints.js'
import { FIXTURES } from '../support/paths.js'

describe('offset checkpoints', () => {
  it('the broker-written replication-offset-checkpoint of the orders fixture parses to the high watermarks in expected.json', () => {
    const cp = parseOffsetCheckpoint(fs.readFileSync(path.join(FIXTURES, 'orders', 'logs', 'replication-offset-checkpoint')))
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'orders', 'expected.json'), 'utf8')) as { partitions: Array<{ topic: string, partition: number, highWatermark: number }> }
    expect(cp).not.toBeNull()
    for (const p of expected.partitions) expect(cp!.get(`${p.topic}-${p.partition}`), `${p.topic}-${p.partition}`).toBe(BigInt(p.highWatermark))
  })

  it('a 16 MiB line is refused at once (null: no entry), without building it as a string', () => {
    const big = Buffer.concat([Buffer.from('0\n1\n'), Buffer.alloc(16 * 1024 * 1024, 'x'), Buffer.from(' 0 5\n')])
    const before = process.memoryUsage().heapUsed
    expect(parseOffsetCheckpoint(big)).toBeNull()
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024)
  })

  it('an empty file is a checkpoint with no entries, as Kafka\'s CheckpointFile reads the file it creates empty', () => {
    expect(parseOffsetCheckpoint(Buffer.alloc(0))).toEqual(new Map())
    expect(parseOffsetCheckpoint('\n0\n')).toBeNull()
  })
})
