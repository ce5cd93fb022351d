// cleanup prints a partition's log as an inclusive range, as every other range tsdump prints: its first offset
// to its last, which kafka-dump-log's stored text of the partition's one segment gives (the largest lastOffset).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const orders = path.join(FIXTURES, 'orders')

describe('cleanup: log first..last, inclusive', () => {
  it('gives the last offset kafka-dump-log printed for each partition', async () => {
    const r = await runCli(['cleanup', '--now', '2026-12-01T00:00:00Z', path.join(orders, 'logs')])
    expect(r.code).toBeLessThan(2)
    let checked = 0
    for (const p of fs.readdirSync(path.join(orders, 'dump'))) {
      const text = fs.readFileSync(path.join(orders, 'dump', p, '00000000000000000000.log.shallow.txt'), 'utf8')
      const last = Math.max(...[...text.matchAll(/lastOffset: (\d+)/g)].map((m) => Number(m[1])))
      const line = r.stdout.split('\n').find((l) => l.startsWith(`${p}  `))
      expect(line, p).toBeDefined()
      expect(line, p).toMatch(new RegExp(`  log 0\\.\\.${last}  `))
      checked++
    }
    expect(checked).toBe(8)
  })
})
