// Directory modes do only what was asked (issue #12 item 11).
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

const DIR = path.join(FIXTURES, 'orders/logs/orders-11-0')
const dumped = (stdout: string): string[] =>
  stdout
    .split('\n')
    .filter((l) => l.startsWith('Dumping '))
    .map((l) => path.basename(l))

describe('a partition directory with a mode', () => {
  it('--verify-index-only DIR and --index-sanity-check DIR check the indexes and dump no batch', async () => {
    for (const mode of ['--verify-index-only', '--index-sanity-check']) {
      const r = await runCli([mode, DIR])
      expect(r.code, mode).toBe(0)
      expect(dumped(r.stdout), mode).toEqual(['00000000000000000000.index', '00000000000000000000.timeindex'])
      expect(r.stdout, mode).not.toContain('baseOffset:')
    }
  })
  it('--control-only DIR prints only control batches: no index, txnindex or snapshot entries', async () => {
    const r = await runCli(['--control-only', DIR])
    expect(dumped(r.stdout)).toEqual(['00000000000000000000.log'])
    const batches = r.stdout.split('\n').filter((l) => l.startsWith('baseOffset:'))
    expect(batches.length).toBeGreaterThan(0)
    expect(batches.every((l) => l.includes('isControl: true'))).toBe(true)
    const json = (await runCli(['--control-only', '--json', DIR])).stdout
      .trim()
      .split('\n')
      .map((l) => JSON.parse(l) as { type: string })
    expect(json.filter((o) => o.type.endsWith('-entry'))).toEqual([])
    expect(json.filter((o) => o.type === 'batch').length).toBe(batches.length)
  })
  it('a file named explicitly is read whatever the mode, as kafka-dump-log does', async () => {
    const r = await runCli(['--verify-index-only', path.join(DIR, '00000000000000000000.log')])
    expect(r.stdout).toContain('baseOffset: 0 ')
  })
})
