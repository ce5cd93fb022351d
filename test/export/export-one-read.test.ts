// export reads each partition once (scan/export-read.ts): a batch whose transaction has not ended waits in a queue
// that spills to a scratch file past 8 MiB. A transaction that never ends, early in the partition, makes everything
// after it wait: the answers are the consumer's all the same, and the scratch file is gone afterwards.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { SpillQueue } from '../../src/io/spill-queue.js'
import { runCli } from '../support/run-cli.js'
import { LogDir, LogWriter } from '../support/txn-segment-builder.js'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-export-one-read-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

interface Row {
  offset: number
  producerId: number
  isControl: boolean
  visibleReadCommitted: boolean
  visibleReadUncommitted: boolean
  transactionOutcome: string
}

function rowsOf(dir: string): Row[] {
  const rows: Row[] = []
  for (const f of fs.readdirSync(dir).sort()) {
    for (const line of fs.readFileSync(path.join(dir, f), 'utf8').split('\n')) {
      if (line !== '') rows.push(JSON.parse(line) as Row)
    }
  }
  return rows
}

/** `export --format ndjson`, its scratch files under a TMPDIR of the test's own, which must be empty again at the end */
async function exportNdjson(dir: string, out: string): Promise<Awaited<ReturnType<typeof runCli>>> {
  const scratch = fs.mkdtempSync(path.join(tmp, 'scratch-'))
  const before = process.env.TMPDIR
  process.env.TMPDIR = scratch
  let r
  try {
    r = await runCli(['export', '--format', 'ndjson', dir, '-o', out])
  } finally {
    if (before === undefined) delete process.env.TMPDIR
    else process.env.TMPDIR = before
  }
  expect(fs.readdirSync(scratch)).toEqual([])
  return r
}

describe('export reads a partition once', () => {
  it('a transaction that never ends, first in a 12 MB partition: every later batch waits on disk, answered as a consumer would', async () => {
    const d = new LogDir()
    try {
      const w = new LogWriter()
      w.plain(50) // offsets 0..49: before the hanging transaction, visible to read_committed
      w.txn(7n, 0, 5) // 50..54: never ends, so the LSO stays at 50
      let committed = 0
      let aborted = 0
      // 4 KiB values: 12 MB in a few thousand rows
      for (let i = 0; i < 1000; i++) {
        w.plain(2, -1n, 4096)
        const pid = BigInt(100 + (i % 5))
        w.txn(pid, 0, 1, undefined, 4096)
        const abort = i % 4 === 0
        w.marker(pid, 0, abort ? 'ABORT' : 'COMMIT')
        if (abort) aborted += 1
        else committed += 1
      }
      const dir = d.segment('big', 0, 0n, w.batches)
      const size = fs.statSync(path.join(dir, '00000000000000000000.log')).size
      expect(size).toBeGreaterThan(10_000_000)
      const out = path.join(tmp, 'hanging')
      const r = await exportNdjson(dir, out)
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      const plain = 50 + 1000 * 2
      const data = plain + 5 + committed + aborted
      // read_committed: only the records before the open transaction; read_uncommitted: every data record (no checkpoint: HW = log end)
      expect(r.stdout).toBe(
        `big-0: ${data + 1000} rows (read_committed 50, read_uncommitted ${data}), 1 file in topic=big/partition=0/\n`,
      )
      const rows = rowsOf(path.join(out, 'topic=big/partition=0'))
      expect(rows.length).toBe(data + 1000)
      const outcomes = new Map<string, number>()
      for (const row of rows) {
        const k = `${row.producerId === 7 ? 'hanging' : row.isControl ? 'marker' : row.producerId >= 0 ? 'txn' : 'plain'} ${row.transactionOutcome} ${row.visibleReadCommitted}`
        outcomes.set(k, (outcomes.get(k) ?? 0) + 1)
      }
      expect(Object.fromEntries(outcomes)).toEqual({
        'plain none true': 50,
        'plain none false': plain - 50,
        'hanging open false': 5,
        'txn committed false': committed,
        'txn aborted false': aborted,
        'marker committed false': 750,
        'marker aborted false': 250,
      })
      expect(rows.map((x) => x.offset)).toEqual(rows.map((_, i) => i))
    } finally {
      d.remove()
    }
  })

  it('the same transactions ended: nothing waits past its marker, and every batch is answered alike', async () => {
    const d = new LogDir()
    try {
      const w = new LogWriter()
      w.txn(7n, 0, 5)
      w.plain(3)
      w.marker(7n, 0, 'ABORT')
      w.txn(8n, 0, 2)
      w.txn(9n, 0, 2)
      w.marker(9n, 0, 'COMMIT')
      w.plain(1)
      w.marker(8n, 0, 'COMMIT')
      w.plain(1)
      const dir = d.segment('t', 0, 0n, w.batches)
      const out = path.join(tmp, 'ended')
      const r = await runCli(['export', '--format', 'ndjson', dir, '-o', out])
      expect(r.code).toBe(0)
      const rows = rowsOf(path.join(out, 'topic=t/partition=0'))
      expect(rows.map((x) => `${x.offset} ${x.transactionOutcome} ${x.visibleReadCommitted}`)).toEqual([
        '0 aborted false',
        '1 aborted false',
        '2 aborted false',
        '3 aborted false',
        '4 aborted false',
        '5 none true',
        '6 none true',
        '7 none true',
        '8 aborted false',
        '9 committed true',
        '10 committed true',
        '11 committed true',
        '12 committed true',
        '13 committed false',
        '14 none true',
        '15 committed false',
        '16 none true',
      ])
    } finally {
      d.remove()
    }
  })
})

// a batch over the record pass's 1 MiB window that waits for its transaction's end waits by its header, its bytes in a
// scratch file copied as its CRC streamed past (scan/export-large.ts), and its records are read from there at its turn
describe('export holds a batch over 1 MiB by its header', () => {
  it('large batches of an aborted and a committed transaction: answered as a consumer would, values whole', async () => {
    const d = new LogDir()
    try {
      const w = new LogWriter()
      w.plain(2) // 0..1
      w.txn(7n, 0, 3, undefined, 500_000) // 2..4, 1.5 MB: aborted below
      w.plain(1) // 5
      w.txn(8n, 0, 2, undefined, 700_000) // 6..7, 1.4 MB: committed below
      w.marker(7n, 0, 'ABORT') // 8
      w.marker(8n, 0, 'COMMIT') // 9
      w.plain(1) // 10
      const dir = d.segment('t', 0, 0n, w.batches)
      const out = path.join(tmp, 'large')
      const r = await exportNdjson(dir, out)
      expect(r.stderr).toBe('')
      expect(r.code).toBe(0)
      const rows = rowsOf(path.join(out, 'topic=t/partition=0')) as (Row & { value: string | null })[]
      expect(rows.map((x) => `${x.offset} ${x.transactionOutcome} ${x.visibleReadCommitted}`)).toEqual([
        '0 none true',
        '1 none true',
        '2 aborted false',
        '3 aborted false',
        '4 aborted false',
        '5 none true',
        '6 committed true',
        '7 committed true',
        '8 aborted false',
        '9 committed false',
        '10 none true',
      ])
      // LogWriter's values: the batch's i-th record holds `valueBytes` bytes of 'a' + i
      const large = [...[2, 3, 4].map((o) => [o, 500_000, o - 2]), ...[6, 7].map((o) => [o, 700_000, o - 6])]
      for (const [offset, size, i] of large)
        expect(
          Buffer.from(rows[offset!]!.value!, 'base64').equals(Buffer.alloc(size!, 97 + i!)),
          `offset ${offset}`,
        ).toBe(true)
    } finally {
      d.remove()
    }
  })
})

describe('SpillQueue', () => {
  it('keeps the order across memory and its scratch file, which is deleted on close', () => {
    const scratch = fs.mkdtempSync(path.join(tmp, 'q-'))
    const before = process.env.TMPDIR
    process.env.TMPDIR = scratch
    try {
      const q = new SpillQueue(100)
      const got: number[] = []
      let n = 0
      for (let round = 0; round < 5; round++) {
        for (let i = 0; i < 40; i++) q.push(Buffer.alloc(7 + (n % 5), n++ % 256))
        expect(fs.readdirSync(scratch).length).toBe(1)
        for (let i = 0; i < 25; i++) {
          const b = q.shift()!
          expect(q.peek() === undefined || q.length > 0).toBe(true)
          got.push(b[0]!)
          expect(b.length).toBe(7 + ((got.length - 1) % 5))
        }
      }
      while (q.length > 0) got.push(q.shift()![0]!)
      expect(q.shift()).toBeUndefined()
      expect(got).toEqual(Array.from({ length: 200 }, (_, i) => i % 256))
      q.close()
      expect(fs.readdirSync(scratch)).toEqual([])
    } finally {
      if (before === undefined) delete process.env.TMPDIR
      else process.env.TMPDIR = before
    }
  })
})
