// Issue 12 item 17: tables fit 80 columns, --wide prints everything, ISO times where people read them
// (lso, txns) and never in --compat.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'
import { linesOver, shellJoined } from '../support/width.js'

const logDirs = (root: string): string[] =>
  fs
    .readdirSync(root)
    .map((s) => path.join(root, s, 'logs'))
    .filter((p) => fs.existsSync(p))
const LOG_DIRS = logDirs(FIXTURES)
// relative to the repository, as the other width tests type them: no line's width depends on where the checkout is
const EVERY_LOG_DIR = [...LOG_DIRS, ...logDirs(path.join(REPO_ROOT, 'fixtures/broker-4.4'))].map((p) =>
  path.relative(REPO_ROOT, p),
)
const ISO = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d/
const NOW = ['--now', '2026-11-29T15:40:00Z']

describe('table widths', () => {
  it("reconcile, txns, lso, transactions and cleanup over every fixture fit 80 columns, lso's and cleanup's abort commands too", async () => {
    for (const cmd of ['reconcile', 'txns', 'lso', 'transactions', 'cleanup']) {
      const r = await runCli([cmd, ...(cmd === 'reconcile' || cmd === 'txns' ? [] : NOW), ...EVERY_LOG_DIR], {
        cwd: REPO_ROOT,
      })
      expect(r.stdout, cmd).not.toBe('')
      // a path the user typed is theirs, of any length (it gets a line of its own); what tsdump adds must fit
      expect(linesOver(r.stdout, EVERY_LOG_DIR), cmd).toEqual([])
    }
  })

  it("lso's abort commands, cut with shell continuations, are the commands of its --json once a shell joins the lines", async () => {
    for (const dir of [
      'fixtures/broker/open-txn/logs',
      'fixtures/broker/transactions/logs',
      'fixtures/broker-4.4/streams-eos/logs',
    ]) {
      const argv = ['lso', ...NOW, dir]
      const text = (await runCli(argv, { cwd: REPO_ROOT })).stdout
      const json = JSON.parse((await runCli([...argv, '--json'], { cwd: REPO_ROOT })).stdout) as {
        partitions: Array<{ blocking: { commands: string[] } | null }>
      }
      const commands = json.partitions.flatMap((p) => p.blocking?.commands ?? [])
      const printed = shellJoined(text)
        .split('\n')
        .map((l) => l.trim())
        .filter((l) => l.startsWith('kafka-transactions.sh') && l.includes(' abort '))
      expect(commands.length, dir).toBeGreaterThan(0)
      for (const c of commands) expect(printed, dir).toContain(c)
      expect(
        text
          .split('\n')
          .filter((l) => l.includes('kafka-transactions.sh') && !l.trimEnd().endsWith('\\') && l.length > 80),
        dir,
      ).toEqual([])
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
