import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, FIXTURES_44, REPO_ROOT } from '../support/paths.js'

// README's "SQL over the log" section: each ```sql block run by DuckDB over the export it names, printing the
// ```text block under it (header and rows, ` | ` between values); the fleet query over two brokers' exports.
const readme = fs.readFileSync(path.join(REPO_ROOT, 'README.md'), 'utf8')
const start = readme.indexOf('### SQL over the log: `tsdump export`')
const section = readme.slice(start, readme.indexOf('\n## ', start))
const blocks = [...section.matchAll(/```sql\n([\s\S]*?)```\n(?:```text\n([\s\S]*?)```\n)?/g)].map((m) => ({
  sql: m[1]!,
  prints: m[2],
}))
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-readme-sql-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

async function exported(name: string, input: string): Promise<string> {
  const out = path.join(tmp, name)
  const r = await runCli(['export', input, '-o', out])
  expect(r.code, r.stderr).toBe(0)
  return out
}

describe("README's DuckDB queries", () => {
  it('finds the section and its four queries', () => {
    expect(start).toBeGreaterThan(0)
    expect(blocks.length).toBe(4)
    expect(blocks.filter((b) => b.prints !== undefined).length).toBe(3)
  })

  it('prints what README says, on the fixtures it names', async (ctx) => {
    let duck
    try {
      duck = await import('@duckdb/node-api')
    } catch (e) {
      console.log(`skipping: @duckdb/node-api cannot be loaded (${(e as Error).message})`)
      ctx.skip()
      return
    }
    const c = await (await duck.DuckDBInstance.create(':memory:')).connect()
    const datasets = [
      await exported('open-txn', path.join(FIXTURES, 'open-txn/logs')),
      await exported('open-txn', path.join(FIXTURES, 'open-txn/logs')),
      await exported('orders', path.join(FIXTURES, 'orders/logs')),
    ]
    for (let i = 0; i < 3; i++) {
      const r = await c.runAndReadAll(blocks[i]!.sql.replace("'ds/", `'${datasets[i]!}/`))
      const text =
        [r.columnNames().join(' | '), ...r.getRowsJS().map((row) => row.map(String).join(' | '))].join('\n') + '\n'
      expect(text, blocks[i]!.sql).toBe(blocks[i]!.prints)
    }
    for (const b of ['1', '2'])
      await exported(`fleet/broker=${b}`, path.join(FIXTURES_44, 'replicas-clean', `broker-${b}`))
    const fleet = (await c.runAndReadAll(blocks[3]!.sql.replace("'fleet/", `'${tmp}/fleet/`))).getRowObjectsJS()
    expect(new Set(fleet.map((r) => String(r.broker)))).toEqual(new Set(['1', '2']))
    expect(
      fleet.find((r) => String(r.broker) === '2' && r.topic === 'clean' && Number(r.partition) === 0)?.records,
    ).toBe(10n)
  })
})
