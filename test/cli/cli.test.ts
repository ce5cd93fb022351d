// The CLI in-process (exit codes, stderr wording, NDJSON) and once as a real process through bin/.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'

const ORDERS = path.join(FIXTURES, 'orders/logs')
const P0 = path.join(ORDERS, 'orders-11-0')
const P0LOG = path.join(P0, '00000000000000000000.log')

describe('tsdump dump (in-process)', () => {
  it('--help lists the options and examples, exit 0', async () => {
    const r = await runCli(['dump', '--help'])
    expect(r.code).toBe(0)
    expect(r.stdout).toContain('--deep-iteration')
    expect(r.stdout).toContain('Examples:')
  })
  it('an unknown option is a usage error: exit 2, message on stderr', async () => {
    const r = await runCli(['--no-such-flag', P0LOG])
    expect(r.code).toBe(2)
    expect(r.stderr).toMatch(/unknown option/)
  })
  it('no input is a usage error', async () => {
    const r = await runCli([])
    expect(r.code).toBe(2)
  })
  it('a missing path: exit 2, one line naming it, no stack trace', async () => {
    const r = await runCli(['/nonexistent/orders-0/00000000000000000000.log'])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('/nonexistent/orders-0/00000000000000000000.log')
    expect(r.stderr).toContain('no such file or directory')
    expect(r.stderr).not.toMatch(/\n\s+at /)
  })
  it('control batches say COMMIT and ABORT even in shallow mode', async () => {
    const r = await runCli(['--control-only', P0LOG])
    const lines = r.stdout.split('\n').filter((l) => l.startsWith('baseOffset:'))
    expect(lines).toHaveLength(2)
    expect(lines[0]).toMatch(/^baseOffset: 6 .*isControl: true .*endTxnMarker: COMMIT coordinatorEpoch: 0$/)
    expect(lines[1]).toMatch(/^baseOffset: 15 .*isControl: true .*endTxnMarker: ABORT coordinatorEpoch: 0$/)
    expect(r.stdout).toContain('control batches: COMMIT 1, ABORT 1')
    expect(r.code).toBe(0)
  })
  it('colour only when asked for: COMMIT and ABORT in distinct colours', async () => {
    const plain = await runCli(['--control-only', P0LOG])
    expect(plain.stdout).not.toContain('\x1b[')
    const col = await runCli(['--control-only', P0LOG], { colorLevel: 1 })
    const commit = col.stdout.split('\n').find((l) => l.includes('COMMIT'))!
    const abort = col.stdout.split('\n').find((l) => l.includes('ABORT'))!
    expect(commit).toContain('\x1b[32m')
    expect(abort).toContain('\x1b[31m')
  })
  it('--json is NDJSON: every line parses and has a type; batches carry controlType', async () => {
    const r = await runCli(['--json', '--deep-iteration', '--print-data-log', P0])
    const objs = r.stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as Record<string, unknown>)
    expect(objs.every((o) => typeof o.type === 'string')).toBe(true)
    const batches = objs.filter((o) => o.type === 'batch')
    expect(batches.map((b) => b.controlType ?? null)).toEqual([null, 'COMMIT', null, 'ABORT'])
    const records = objs.filter((o) => o.type === 'record' && o.controlType === undefined)
    expect(records).toHaveLength(14)
    expect(records.every((o) => typeof o.payload === 'string')).toBe(true)
  })
})

describe('bin/tsdump.js as a process', () => {
  it('dumps a partition, honours NO_COLOR, exit 0', () => {
    const r = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/tsdump.js'), P0], {
      encoding: 'utf8',
      env: { ...process.env, NO_COLOR: '1', FORCE_COLOR: '1' },
    })
    expect(r.status).toBe(0)
    expect(r.stdout).toContain('endTxnMarker: COMMIT')
    expect(r.stdout).not.toContain('\x1b[')
  })
  it('stops quietly when the reader goes away (| head)', () => {
    const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-pipe-'))
    try {
      const r = spawnSync(
        'bash',
        [
          '-c',
          `set -o pipefail; node ${path.join(REPO_ROOT, 'bin/tsdump.js')} --deep-iteration ${path.join(FIXTURES, 'orders/logs')} | head -1`,
        ],
        { encoding: 'utf8' },
      )
      expect(r.stderr).not.toMatch(/EPIPE|\n\s+at /)
      expect(r.status).toBe(0)
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })
})
