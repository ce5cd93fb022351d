// Issue 12 item 9: mistyped subcommands, options before the subcommand, --json with --compat, no arguments.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'
import { suggestSubcommand } from '../../src/cli/suggest.js'

const P0 = path.join(FIXTURES, 'orders/logs/orders-11-0')
const NAMES = ['dump', 'reconcile', 'txns', 'lso']

describe('command line usage', () => {
  it('`tsdump recon DIR` is a usage error naming reconcile, and nothing is dumped first', async () => {
    for (const typo of ['recon', 'reconcle', 'txn', 'lsp']) {
      const r = await runCli([typo, P0])
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(new RegExp(`did you mean ${suggestSubcommand(typo, NAMES)!}\\?`))
    }
    expect(suggestSubcommand('recon', NAMES)).toBe('reconcile')
    expect(suggestSubcommand('00000000000000000000.log', NAMES)).toBeUndefined()
  })
  it('a file that exists under a command-like name is read as a file, not taken for a typo', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-usage-'))
    try {
      fs.copyFileSync(path.join(P0, '00000000000000000000.log'), path.join(dir, 'recon'))
      const r = await runCli(['recon'], { cwd: dir })
      // (how a file without a Kafka suffix is reported is the dump's business; it is named, not suggested away)
      expect(r.stdout + r.stderr).toContain('recon')
      expect(r.stderr).not.toContain('did you mean')
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
  it('options may come before the subcommand, with their values', async () => {
    const before = await runCli(['--json', 'reconcile', P0])
    const after = await runCli(['reconcile', '--json', P0])
    expect(before.code).toBe(0)
    expect(before.stdout).toBe(after.stdout)
    expect(JSON.parse(before.stdout)).toHaveProperty('partitions')
    const txns = await runCli(['--width', '20', '--json', 'txns', P0])
    expect(txns.code).toBe(0)
    expect(txns.stdout).toBe((await runCli(['txns', '--json', '--width', '20', P0])).stdout)
  })
  it('--json with --compat is a usage error, in either order', async () => {
    for (const argv of [
      ['--json', '--compat', P0],
      ['--compat', '--json', P0],
    ]) {
      const r = await runCli(argv)
      expect(r.code).toBe(2)
      expect(r.stdout).toBe('')
      expect(r.stderr).toMatch(/--json.*--compat|--compat.*--json/)
    }
  })
  it('no arguments prints the help on stderr and exits 2', async () => {
    const r = await runCli([])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('Usage: tsdump')
    expect(r.stderr).toContain('reconcile')
    expect(r.stdout).toBe('')
  })
})
