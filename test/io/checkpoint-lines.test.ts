// Checkpoint files are a few short lines per partition (Kafka CheckpointFile). A damaged one with an enormous
// line (issue #25: 16 MiB in one line cost reconcile 168 MiB and 8 s) is refused before the line becomes a string.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import * as os from 'node:os'
import { parseOffsetCheckpoint, readOffsetCheckpoint } from '../../src/io/checkpoints.js'
import { offsetCheckpointEntries } from '../../src/io/partition-files.js'
import { bufferLines } from '../../src/io/text-lines.js'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

describe('offset checkpoints', () => {
  it('the broker-written replication-offset-checkpoint of the orders fixture parses to the high watermarks in expected.json', () => {
    const cp = parseOffsetCheckpoint(
      fs.readFileSync(path.join(FIXTURES, 'orders', 'logs', 'replication-offset-checkpoint')),
    )
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'orders', 'expected.json'), 'utf8')) as {
      partitions: Array<{ topic: string; partition: number; highWatermark: number }>
    }
    expect(cp).not.toBeNull()
    for (const p of expected.partitions)
      expect(cp!.get(`${p.topic}-${p.partition}`), `${p.topic}-${p.partition}`).toBe(BigInt(p.highWatermark))
  })

  it('a 16 MiB line is refused at once (null: no entry), without building it as a string', () => {
    const big = Buffer.concat([Buffer.from('0\n1\n'), Buffer.alloc(16 * 1024 * 1024, 'x'), Buffer.from(' 0 5\n')])
    const before = process.memoryUsage().heapUsed
    expect(parseOffsetCheckpoint(big)).toBeNull()
    expect(process.memoryUsage().heapUsed - before).toBeLessThan(8 * 1024 * 1024)
  })

  it("an empty file is a checkpoint with no entries, as Kafka's CheckpointFile reads the file it creates empty", () => {
    expect(parseOffsetCheckpoint(Buffer.alloc(0))).toEqual(new Map())
    expect(parseOffsetCheckpoint('\n0\n')).toBeNull()
  })

  // CheckpointFile.CheckpointReadBuffer.read: "Expected <n> entries in checkpoint file ..., but found only <m>",
  // and a blank or malformed line is an IOException too: the broker does not load such a file
  it("the count the file declares is checked against the entries it holds, as Kafka's CheckpointFile reads it", () => {
    const end = (t: string): ReturnType<typeof offsetCheckpointEntries> =>
      offsetCheckpointEntries('f', bufferLines(Buffer.from(t)), () => {})
    expect(end('0\n2\nt 0 5\nt 1 6\n')).toEqual({ declared: 2, found: 2, problem: null, order: null })
    expect(end('0\n3\nt 0 5\nt 1 6\n').problem).toEqual({
      file: 'f',
      position: 16,
      message: 'expected 3 entries but found 2',
    })
    expect(end('0\n1\nt 0 5\nt 1 6\n').problem).toEqual({
      file: 'f',
      position: 10,
      message: 'expected 1 entries but found 2',
    })
    expect(end('0\n2\nt 0 5\n\nt 1 6\n').problem?.message).toMatch(/^malformed line ""/)
    expect(end('1\n0\n').problem?.message).toBe('unrecognised version 1 (Kafka reads 0)')
    expect(end('0\n').problem).toBeNull()
    expect(parseOffsetCheckpoint('0\n3\nt 0 5\nt 1 6\n')).toBeNull()
    expect(parseOffsetCheckpoint('0\n2\nt 0 5\nt 1 6\n')).toEqual(
      new Map([
        ['t-0', 5n],
        ['t-1', 6n],
      ]),
    )
  })

  it('keeps only the entries of the partitions the log directory holds (or those asked for) of a checkpoint of millions of lines', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-cp-'))
    try {
      fs.mkdirSync(path.join(dir, 'orders-1'))
      const n = 2_000_000
      const body = Buffer.alloc(n * 6)
      for (let i = 0; i < n; i++) body.write('x 0 0\n', i * 6)
      fs.writeFileSync(
        path.join(dir, 'cleaner-offset-checkpoint'),
        Buffer.concat([Buffer.from(`0\n${n + 2}\n`), body, Buffer.from('orders 1 42\nother 3 7\n')]),
      )
      expect(readOffsetCheckpoint(dir, 'cleaner-offset-checkpoint')).toEqual(new Map([['orders-1', 42n]]))
      expect(readOffsetCheckpoint(dir, 'cleaner-offset-checkpoint', new Set(['other-3', 'x-0']))).toEqual(
        new Map([
          ['other-3', 7n],
          ['x-0', 0n],
        ]),
      )
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('dump and cleanup report a checkpoint whose count disagrees with its entries', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-cp-'))
    try {
      const file = path.join(dir, 'replication-offset-checkpoint')
      fs.writeFileSync(file, '0\n3\nt 0 5\nt 1 6\n')
      const r = await runCli(['--json', file])
      const f = r.stdout
        .trim()
        .split('\n')
        .map((l) => JSON.parse(l) as { type: string; code?: string; message?: string; position?: number })
        .find((o) => o.type === 'finding')
      expect(f).toMatchObject({ code: 'OFFSET_CHECKPOINT_DAMAGED', position: 16 })
      expect(f?.message).toMatch(/^expected 3 entries but found 2/)
      expect(r.code).toBe(1)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
