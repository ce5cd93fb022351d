import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'
import { duckdb } from '../support/duckdb.js'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-export-cli-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})
const ORDERS_11_0 = path.join(FIXTURES, 'orders/logs/orders-11-0')

function copyDir(from: string, to: string): void {
  fs.mkdirSync(to, { recursive: true })
  for (const n of fs.readdirSync(from)) fs.copyFileSync(path.join(from, n), path.join(to, n))
}

describe('tsdump export', () => {
  it('refuses an output directory inside an input, before writing anything (exit 2)', async () => {
    const input = path.join(tmp, 'in/orders-11-0')
    copyDir(ORDERS_11_0, input)
    const before = fs.readdirSync(input).sort()
    const parent = path.join(tmp, 'in')
    for (const [from, out] of [
      [input, input],
      [input, path.join(input, 'ds')],
      [parent, path.join(parent, 'x')],
    ] as const) {
      const r = await runCli(['export', from, '-o', out])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(/tsdump: error: .* is inside the input .*tsdump never writes where it reads/)
    }
    // an input file: its directory is an input too
    const r = await runCli(['export', path.join(input, '00000000000000000000.log'), '-o', path.join(input, 'out')])
    expect(r.code).toBe(2)
    expect(fs.readdirSync(input).sort()).toEqual(before)
  })

  it('names a missing input as the other commands do (exit 2), even where its parent holds the output', async () => {
    const reconcile = await runCli(['reconcile', path.join(tmp, 'no-such-dir')])
    const said = reconcile.stderr.replace(path.join(tmp, 'no-such-dir'), '<input>')
    expect(said).toMatch(/^tsdump: error: <input>: no such file or directory/)
    for (const [from, out] of [
      [path.join(tmp, 'no-such-dir'), path.join(tmp, 'out-missing')],
      [path.join(tmp, 'no-such-dir/deeper'), path.join(tmp, 'out-missing')],
      [path.join(tmp, 'no-such-dir'), path.join(os.tmpdir(), `tsdump-export-elsewhere-${process.pid}`)],
    ] as const) {
      const r = await runCli(['export', from, '--format', 'ndjson', '-o', out])
      expect(r.code).toBe(2)
      expect(r.stderr.replace(from, '<input>')).toBe(said)
      expect(fs.existsSync(out)).toBe(false)
    }
  })

  it("applies dump's filters: --start-offset/--end-offset cut the edge batches' records", async (ctx) => {
    const q = await duckdb()
    if (q === null) {
      ctx.skip()
      return
    }
    const out = path.join(tmp, 'filtered')
    const r = await runCli(['export', ORDERS_11_0, '-o', out, '--start-offset', '3', '--end-offset', '9'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toMatch(
      /^orders-11-0: 7 rows \(read_committed 3, read_uncommitted 6\), 1 file in topic=orders-11\/partition=0\/\n$/,
    )
    const rows = await q(
      `select "offset" o, isControl, transactionOutcome t from '${out}/topic=orders-11/partition=0/00000000000000000000.parquet' order by 1`,
    )
    expect(rows.map((x) => Number(x.o))).toEqual([3, 4, 5, 6, 7, 8, 9])
    expect(rows.map((x) => x.t)).toEqual([
      'committed',
      'committed',
      'committed',
      'committed',
      'aborted',
      'aborted',
      'aborted',
    ])
  })

  it('says unknown, not open, for a transaction whose marker damage may hide (the ABORT batch cut off)', async (ctx) => {
    const q = await duckdb()
    if (q === null) {
      ctx.skip()
      return
    }
    // kafka-dump-log's text of orders-11-0: the ABORT marker is the batch at position 1074 (78 bytes); cut inside it
    const text = fs.readFileSync(
      path.join(FIXTURES, 'orders/dump/orders-11-0/00000000000000000000.log.shallow.txt'),
      'utf8',
    )
    const marker = /baseOffset: 15 .*isControl: true .*position: (\d+) /.exec(text)
    expect(marker).not.toBeNull()
    const dir = path.join(tmp, 'damaged/orders-11-0')
    copyDir(ORDERS_11_0, dir)
    fs.truncateSync(path.join(dir, '00000000000000000000.log'), Number(marker![1]) + 40)
    const out = path.join(tmp, 'damaged-out')
    const r = await runCli(['export', dir, '-o', out])
    expect(r.code).toBe(1)
    expect(r.stderr).toContain('TRUNCATED_TAIL')
    const rows = await q(
      `select transactionOutcome t, count(*) n, bool_or(visibleReadCommitted) rc from '${out}/**/*.parquet' where not isControl group by 1 order by 1`,
    )
    expect(rows).toEqual([
      { t: 'committed', n: 6n, rc: true },
      { t: 'unknown', n: 8n, rc: false },
    ])
  })

  it('a large input is exported by a worker thread (here from 0 bytes on): the same files, byte for byte', async () => {
    const { runExport } = await import('../../src/commands/export.js')
    const { StringWriter } = await import('../../src/format/writer.js')
    const ctx = {
      stdout: new StringWriter(),
      stderr: new StringWriter(),
      colorLevel: 0 as const,
      stderrIsTTY: false,
      env: {},
      now: () => 0,
    }
    const paths = [path.join(FIXTURES, 'orders/logs')]
    const inProcess = path.join(tmp, 'in-process')
    const inWorker = path.join(tmp, 'in-worker')
    expect(await runExport({ paths, out: inProcess }, ctx, Number.MAX_SAFE_INTEGER)).toBe(0)
    expect(await runExport({ paths, out: inWorker }, ctx, 0)).toBe(0)
    const files = (d: string): string[] =>
      (fs.readdirSync(d, { recursive: true }) as string[]).filter((f) => f.endsWith('.parquet')).sort()
    expect(files(inWorker)).toEqual(files(inProcess))
    expect(files(inProcess).length).toBe(8)
    for (const f of files(inProcess))
      expect(fs.readFileSync(path.join(inWorker, f)).equals(fs.readFileSync(path.join(inProcess, f))), f).toBe(true)
  })

  it('a file holds whole batches; past fileRows the next batch starts a file named by its base offset', async () => {
    const { exportDataset } = await import('../../src/commands/export.js')
    const r = exportDataset([ORDERS_11_0], { out: path.join(tmp, 'rolled'), fileRows: 5 })
    // kafka-dump-log's batches of orders-11-0: 0..5, the COMMIT at 6, 7..14, the ABORT at 15
    expect(r.partitions[0]!.files.map((f) => path.basename(f))).toEqual([
      '00000000000000000000.parquet',
      '00000000000000000006.parquet',
      '00000000000000000015.parquet',
    ])
    expect(r.partitions[0]!.rows).toBe(16)
  })

  it('a partition the filter leaves empty writes no file', async () => {
    const out = path.join(tmp, 'empty')
    const r = await runCli(['export', ORDERS_11_0, '-o', out, '--producer-id', '99'])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('orders-11-0: 0 rows (read_committed 0, read_uncommitted 0), no rows in range, no file')
    expect(fs.existsSync(path.join(out, 'topic=orders-11'))).toBe(false)
  })
})
