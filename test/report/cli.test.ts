import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const ORDERS_11_0 = path.join(FIXTURES, 'orders/logs/orders-11-0')

describe('tsdump report (CLI)', () => {
  it('writes the page to -o and says so on stderr; - writes it to stdout', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-report-cli-'))
    try {
      const out = path.join(dir, 'r.html')
      const r = await runCli(['report', ORDERS_11_0, '-o', out])
      expect(r.code).toBe(0)
      expect(r.stderr).toMatch(/^tsdump: wrote .*r\.html \(\d+ bytes, 1 partition\)\n$/)
      const html = fs.readFileSync(out, 'utf8')
      expect(html).toContain('data-partition="orders-11-0"')
      expect(html).toMatch(/tsdump \d+\.\d+\.\d+ · inputs:/) // the generator line names the version
      const s = await runCli(['report', ORDERS_11_0, '-o', '-', '--title', 'T <1>'])
      expect(s.code).toBe(0)
      expect(s.stdout).toMatch(/^<!DOCTYPE html>/)
      expect(s.stdout).toContain('<title>T &lt;1&gt;</title>')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })

  it('usage errors and unwritable output exit 2; an input file is never overwritten', async () => {
    expect((await runCli(['report', ORDERS_11_0])).code).toBe(2) // -o is required
    const seg = path.join(ORDERS_11_0, '00000000000000000000.log')
    const before = fs.readFileSync(seg)
    const r = await runCli(['report', ORDERS_11_0, '-o', seg])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/^tsdump: error: .*is one of the files being read/)
    expect(fs.readFileSync(seg).equals(before)).toBe(true)
    const w = await runCli(['report', ORDERS_11_0, '-o', path.join(os.tmpdir(), 'no-such-dir-tsdump', 'r.html')])
    expect(w.code).toBe(2)
    expect(w.stderr).toMatch(
      /^tsdump: error: .*r\.html: cannot write the report: no such file or directory \[OUTPUT_WRITE_FAILED\]$/m,
    )
    // unusable input: exit 2 as reconcile, the path on stderr, and no page written
    const u = await runCli(['report', '/no/such/path', '-o', '-'])
    expect(u.code).toBe(2)
    // in the one finding format, as reconcile prints it
    expect(u.stderr).toMatch(/^tsdump: error: \/no\/such\/path: no such file or directory \[UNREADABLE\]$/m)
    expect(u.stdout).toBe('')
  })

  it('a damaged segment: exit 1, the finding on stderr and in the page with its file and byte position', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-report-cli-'))
    try {
      const part = path.join(dir, 't-0')
      fs.mkdirSync(part)
      const seg = path.join(part, '00000000000000000000.log')
      const src = fs.readFileSync(path.join(FIXTURES, 'interleaved/logs/mixed-0/00000000000000000000.log'))
      fs.writeFileSync(seg, src.subarray(0, 1000))
      const out = path.join(dir, 'r.html')
      const r = await runCli(['report', part, '-o', out])
      expect(r.code).toBe(1)
      const m = /tsdump: error: (.*): position (\d+): .* \[TRUNCATED_TAIL\]/.exec(r.stderr)
      expect(m?.[1]).toBe(seg)
      const html = fs.readFileSync(out, 'utf8')
      expect(html).toContain(`<tr data-code="TRUNCATED_TAIL" data-severity="error"><td class="l">t-0</td>`)
      expect(html).toContain(`<td class="l">${seg}</td><td>${m![2]}</td>`)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
