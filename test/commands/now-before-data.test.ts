// --now (or the clock) earlier than the data's own newest timestamp gives negative ages: lso and cleanup say
// so in a warning that names the newest timestamp, which kafka-dump-log's stored text of the fixture gives
// (the largest CreateTime it printed); a later --now gives no warning.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const fixture = path.join(FIXTURES, 'open-txn')

function newestCreateTime(): number {
  let newest = 0
  const dump = path.join(fixture, 'dump')
  for (const p of fs.readdirSync(dump)) {
    for (const f of fs.readdirSync(path.join(dump, p)).filter((n) => n.endsWith('.log.shallow.txt'))) {
      for (const m of fs.readFileSync(path.join(dump, p, f), 'utf8').matchAll(/CreateTime: (\d+)/g))
        newest = Math.max(newest, Number(m[1]))
    }
  }
  return newest
}

describe('--now before the data', () => {
  const newest = newestCreateTime()
  it('the stored text has timestamps', () => {
    expect(newest).toBeGreaterThan(0)
  })
  for (const cmd of ['lso', 'cleanup']) {
    it(`${cmd} warns, naming the newest timestamp; not for a later --now`, async () => {
      const early = await runCli([cmd, '--now', new Date(newest - 60_000).toISOString(), path.join(fixture, 'logs')])
      expect(early.code).toBeLessThan(2)
      expect(early.stderr).toContain(
        `tsdump: warning: --now ${new Date(newest - 60_000).toISOString()} is before the data's newest\n  timestamp ${new Date(newest).toISOString()}: ages measured from it are negative`,
      )
      const late = await runCli([cmd, '--now', new Date(newest).toISOString(), path.join(fixture, 'logs')])
      expect(late.stderr).not.toContain('is before the data')
    })
  }
})
