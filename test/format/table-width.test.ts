// Issue 12 item 17: tables fit 80 columns, --wide prints everything, ISO times where people read them
// (lso, txns) and never in --compat.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

const LOG_DIRS = fs
  .readdirSync(FIXTURES)
  .map((s) => path.join(FIXTURES, s, 'logs'))
  .filter((p) => fs.existsSync(p))
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/

function tableLines(out: string): string[] {
  // the abort commands are meant to be copied whole, so they may be long; everything else must fit
  return out.split('\n').filter((l) => !l.trimStart().startsWith('kafka-transactions.sh'))
}

describe('table widths', () => {
  it('reconcile, txns and lso over every fixture fit 80 columns', async () => {
    for (const cmd of ['reconcile', 'txns', 'lso']) {
      const r = await runCli([cmd, ...(cmd === 'lso' ? ['--now', '2026-11-29T15:40:00Z'] : []), ...LOG_DIRS])
      const long = tableLines(r.stdout).filter((l) => l.length > 80)
      expect(long, cmd).toEqual([])
    }
  })
  it('--wide restores the columns the narrow form leaves out', async () => {
    const narrow = await runCli(['reconcile', ...LOG_DIRS])
    const wide = await runCli(['reconcile', '--wide', ...LOG_DIRS])
    expect(narrow.stdout).toMatch(/--wide shows \d more columns?: /)
    expect(wide.stdout).not.toContain('--wide shows')
    expect(wide.stdout.split('\n')[0]!.split(/\s+/)).toEqual([
      'PARTITION',
      'LEO',
      'HW',
      'LSO',
      'READ_COMMITTED',
      'READ_UNCOMMITTED',
      'ABORTED',
      'PENDING',
      'COMMIT',
      'ABORT',
      'OPEN_TXNS',
    ])
    const txns = await runCli(['txns', '--wide', path.join(FIXTURES, 'interleaved/logs')])
    expect(txns.stdout).toContain('interleaved with other producers')
    expect(txns.stdout).toMatch(/COORDINATOR_EPOCH\s+FIRST_TIMESTAMP\s+NOTES/)
  })
  it('txns and lso show ISO-8601 times; --compat never does', async () => {
    const orders = path.join(FIXTURES, 'orders/logs/orders-11-0')
    expect((await runCli(['txns', orders])).stdout).toMatch(ISO)
    expect((await runCli(['lso', path.join(FIXTURES, 'open-txn/logs')])).stdout).toMatch(ISO)
    const compat = await runCli(['--compat', '--deep-iteration', orders])
    expect(compat.stdout).toContain('baseOffset: 0')
    expect(compat.stdout).not.toMatch(ISO)
  })
})
