// One rule, one format (issue #12 items 6 and 7): the same file gives the same code and exit from dump and
// reconcile; repeated findings are throttled with a count; option-parser and unusable-path errors use the
// findings' format `tsdump: error: ...`.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { encodeBatch } from '../support/segment-builder.js'
import { encodeTxnIndex, LogDir, LogWriter } from '../support/txn-segment-builder.js'

const d = new LogDir()
afterAll(() => d.remove())

function codeLines(stderr: string, code: string): string[] {
  return stderr.split('\n').filter((l) => l.endsWith(`[${code}]`))
}

describe('one severity per code, from every command', () => {
  it('a partial .txnindex entry: TXNINDEX_PARTIAL_ENTRY and exit 1 from dump and from reconcile', async () => {
    const w = new LogWriter()
    w.txn(7n, 0, 2)
    w.marker(7n, 0, 'ABORT')
    d.segment('tp', 0, 0n, w.batches)
    const dir = d.partitionPath('tp', 0)
    const idx = path.join(dir, '00000000000000000000.txnindex')
    fs.writeFileSync(
      idx,
      Buffer.concat([
        encodeTxnIndex([{ producerId: 7n, firstOffset: 0n, lastOffset: 2n, lastStableOffset: 0n }]),
        Buffer.alloc(5, 1),
      ]),
    )
    const dump = await runCli([idx])
    const rec = await runCli(['reconcile', dir])
    expect(codeLines(dump.stderr, 'TXNINDEX_PARTIAL_ENTRY')).toHaveLength(1)
    expect(codeLines(rec.stderr, 'TXNINDEX_PARTIAL_ENTRY')).toHaveLength(1)
    expect(dump.code).toBe(1)
    expect(rec.code).toBe(dump.code)
    // the same line, word for word, but for the file name's spelling
    expect(codeLines(rec.stderr, 'TXNINDEX_PARTIAL_ENTRY')[0]).toMatch(
      /^tsdump: warning: .*00000000000000000000\.txnindex: position 34: 5 bytes after the last complete entry/,
    )
  })
})

describe('repeated findings are throttled with a count', () => {
  it('1,023 OFFSETS_NOT_INCREASING in one partition: one line and a count; --json lists the first 100 and counts the rest', async () => {
    const w = new LogWriter()
    for (let i = 0; i < 1024; i++) {
      w.next = 0n
      w.plain(1)
    }
    d.segment('dup', 0, 0n, w.batches)
    const r = await runCli(['reconcile', d.partitionPath('dup', 0)])
    const lines = codeLines(r.stderr, 'OFFSETS_NOT_INCREASING')
    // the partition's report keeps 100 of a code (analysis/finding-list.ts): those throttled, then the count of the rest
    expect(lines).toHaveLength(3)
    expect(lines[0]).toMatch(/position \d+: batch at offset 0 does not follow offset 0/)
    expect(lines[1]).toContain('99 more like the one above (100 in all; --json lists each)')
    expect(lines[2]).toContain('... and 923 more OFFSETS_NOT_INCREASING not listed')
    expect(r.code).toBe(1)
    const j = JSON.parse((await runCli(['reconcile', '--json', d.partitionPath('dup', 0)])).stdout) as {
      partitions: Array<{ findings: Array<{ code: string }>; omittedFindings: Record<string, number> }>
    }
    expect(j.partitions[0]!.findings.filter((f) => f.code === 'OFFSETS_NOT_INCREASING')).toHaveLength(100)
    expect(j.partitions[0]!.omittedFindings).toEqual({ OFFSETS_NOT_INCREASING: 923 })
  })
  it('dump: a few repeats are all printed, many become the first and a count, per file', async () => {
    const few = path.join(d.root, '00000000000000000000.log')
    const many = path.join(d.root, 'many', '00000000000000000000.log')
    fs.mkdirSync(path.dirname(many), { recursive: true })
    const batch = (i: number, bad: boolean): Buffer =>
      encodeBatch({ baseOffset: i, records: [{ key: 'k', value: 'v' }], ...(bad ? { crc: 'bad' as const } : {}) })
    fs.writeFileSync(few, Buffer.concat([0, 1, 2, 3].map((i) => batch(i, i % 2 === 1))))
    fs.writeFileSync(many, Buffer.concat(Array.from({ length: 40 }, (_v, i) => batch(i, true))))
    const r = await runCli([few, many])
    expect(r.code).toBe(1)
    const crc = codeLines(r.stderr, 'CRC_MISMATCH')
    expect(crc.filter((l) => l.includes(few))).toHaveLength(2)
    const inMany = crc.filter((l) => l.includes(many))
    expect(inMany).toHaveLength(2)
    expect(inMany[1]).toContain('39 more like the one above (40 in all')
    // the summary still counts every one
    expect(r.stdout).toContain('CRC failures: 40')
  })
})

describe('one error format', () => {
  it('option-parser errors and unusable paths read tsdump: error: ...', async () => {
    for (const argv of [
      ['--max-bytes', '-5', 'x'],
      ['--bogus', 'x'],
      ['recon', 'x'],
      ['--json', '--compat', 'x'],
    ]) {
      const r = await runCli(argv)
      expect(r.code, argv.join(' ')).toBe(2)
      expect(r.stderr.split('\n')[0], argv.join(' ')).toMatch(/^tsdump: error: /)
    }
    // an unusable path is a finding, in the one finding format (file, message, code; no position in a file
    // that is not there), the same line from every command
    const nope = path.join(d.root, 'nope')
    for (const argv of [
      [nope],
      ['reconcile', nope],
      ['txns', nope],
      ['transactions', nope],
      ['lso', nope],
      ['cleanup', nope],
      ['report', '-o', '-', nope],
      ['replicas', nope, nope],
    ]) {
      const r = await runCli(argv)
      expect(r.code, argv[0]).toBe(2)
      expect(r.stderr.split('\n')[0], argv[0]).toBe(`tsdump: error: ${nope}: no such file or directory [UNREADABLE]`)
    }
  })
})
