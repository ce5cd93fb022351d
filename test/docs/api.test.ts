// docs/api.md stays true to src/index.ts: every name the package exports is documented there (a value with a
// heading of its own and an example that uses it, a type at least named), and every example runs, against the
// package as a user imports it ('tsdump', through package.json "exports" to dist/), printing what the page says
// it prints. The analyses' numbers on the page are also checked against the broker fixtures' expected.json,
// which Kafka's Java console consumer wrote.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'

const doc = fs.readFileSync(path.join(REPO_ROOT, 'docs', 'api.md'), 'utf8')
const index = fs.readFileSync(path.join(REPO_ROOT, 'src', 'index.ts'), 'utf8')

/** the names `export { ... } from` / `export type { ... } from` / `export const` in src/index.ts */
function exportsOf(src: string): { values: string[]; types: string[] } {
  const values: string[] = []
  const types: string[] = []
  for (const m of src.matchAll(/^export (type )?\{([^}]*)\}/gm)) {
    const names = m[2]!
      .split(',')
      .map((n) => n.trim())
      .filter((n) => n !== '')
      .map((n) => n.split(/\s+as\s+/).at(-1)!)
    ;(m[1] !== undefined ? types : values).push(...names)
  }
  for (const m of src.matchAll(/^export (?:const|function|class) (\w+)/gm)) values.push(m[1]!)
  for (const m of src.matchAll(/^export (?:type|interface) (\w+)/gm)) types.push(m[1]!)
  return { values, types }
}

/** `### \`name\`` sections: name -> the text up to the next heading */
function sections(md: string): Map<string, string> {
  const out = new Map<string, string>()
  const parts = md.split(/^(?=#{2,3} )/m)
  for (const p of parts) {
    const m = /^### `(\w+)`/.exec(p)
    if (m !== null) out.set(m[1]!, p)
  }
  return out
}

/** every ```js block, with the ```text block right after it (what it prints) */
function examples(md: string): Array<{ code: string; prints: string | undefined; line: number }> {
  const out: Array<{ code: string; prints: string | undefined; line: number }> = []
  for (const m of md.matchAll(/```js\n([\s\S]*?)```\n(?:\n```text\n([\s\S]*?)```\n)?/g)) {
    out.push({ code: m[1]!, prints: m[2], line: md.slice(0, m.index).split('\n').length })
  }
  return out
}

describe('docs/api.md documents src/index.ts', () => {
  const { values, types } = exportsOf(index)
  const secs = sections(doc)

  it('finds the exports (the parse is not vacuous)', () => {
    expect(values).toEqual(
      expect.arrayContaining([
        'openPartition',
        'readLog',
        'decodeRecords',
        'FileSource',
        'BufferSource',
        'reconcile',
        'txns',
        'lso',
        'VERSION',
      ]),
    )
    expect(types).toEqual(
      expect.arrayContaining(['ReconcileOptions', 'TxnsOptions', 'LsoOptions', 'RangeSpec', 'ReadOptions']),
    )
  })

  it.each(exportsOf(index).values)('%s has a section with an example that uses it', (name) => {
    const s = secs.get(name)
    expect(s, `docs/api.md has no "### \`${name}\`" section`).toBeDefined()
    expect(
      examples(s!).some((e) => new RegExp(`\\b${name}\\b`).test(e.code)),
      `the ${name} section has no example using it`,
    ).toBe(true)
  })

  it.each(exportsOf(index).types)('type %s is named in docs/api.md', (name) => {
    const spans = [...doc.matchAll(/`([^`\n]+)`/g)].map((m) => m[1]!)
    expect(
      spans.some((c) => new RegExp(`\\b${name}\\b`).test(c)),
      `docs/api.md does not name \`${name}\``,
    ).toBe(true)
  })

  it('documents nothing that is not exported', () => {
    const exported = new Set([...values, ...types])
    expect([...secs.keys()].filter((n) => !exported.has(n))).toEqual([])
  })
})

describe('the examples of docs/api.md run and print what the page shows', () => {
  const all = examples(doc)
  it('every example shows its output', () => {
    expect(all.length).toBeGreaterThanOrEqual(sections(doc).size)
    expect(all.filter((e) => e.prints === undefined).map((e) => e.line)).toEqual([])
  })

  it.each(all.map((e) => [e.line, e] as const))('the example at line %i', (_line, e) => {
    const r = spawnSync(process.execPath, ['--input-type=module', '-e', e.code], { cwd: REPO_ROOT, encoding: 'utf8' })
    expect(r.stderr).toBe('')
    expect(r.status).toBe(0)
    expect(r.stdout).toBe(e.prints)
  })

  it("the counts shown for reconcile are the Java consumer's (expected.json)", () => {
    const e = all.find((x) => x.code.includes("reconcile(['fixtures/broker/orders/logs/orders-11-0', "))!
    const shown = e
      .prints!.split('\n')
      .filter((l) => /^\S+-\d+ /.test(l))
      .map((l) => l.split(' '))
    expect(shown.length).toBe(2)
    for (const [label, lso, hw, rc, ru] of shown) {
      const scenario = label === 'stuck-0' ? 'open-txn' : 'orders'
      const want = (
        JSON.parse(fs.readFileSync(path.join(FIXTURES, scenario, 'expected.json'), 'utf8')) as {
          partitions: Array<{
            topic: string
            partition: number
            highWatermark: number
            lastStableOffset: number
            readCommittedRecords: number
            readUncommittedRecords: number
          }>
        }
      ).partitions.find((p) => `${p.topic}-${p.partition}` === label)!
      expect([lso, hw, rc, ru], label).toEqual([
        `${want.lastStableOffset}n`,
        `${want.highWatermark}n`,
        String(want.readCommittedRecords),
        String(want.readUncommittedRecords),
      ])
    }
  })
})
