// Legacy compressed wrappers count their logical records in the shallow summary too (issue #12 item 5);
// the truth is the corpus' facts.json. And the summary's grammar: "1 batch", "1 record".
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { CORPUS, corpusAvailable } from '../support/paths.js'

interface Fact {
  file: string
  batches: number
  records: number
  magic: Record<string, number>
  codecs: Record<string, number>
}

describe.skipIf(!corpusAvailable())('legacy wrappers', () => {
  it('shallow and deep summaries count the messages inside a compressed wrapper, as facts.json does', async () => {
    const facts = (JSON.parse(fs.readFileSync(path.join(CORPUS, 'facts.json'), 'utf8')) as Fact[]).filter(
      (f) => (f.magic['0'] ?? 0) + (f.magic['1'] ?? 0) > 0 && Object.keys(f.codecs).some((c) => c !== 'none'),
    )
    expect(facts.length).toBeGreaterThan(0)
    for (const f of facts) {
      for (const mode of [[], ['--deep-iteration']]) {
        const r = await runCli([...mode, path.join(CORPUS, f.file)])
        const m = /^Summary: (\d+) batch(?:es)?, (\d+) records?,/m.exec(r.stdout)
        expect(m, f.file).not.toBeNull()
        expect(Number(m![2]), `${f.file} ${mode.join(' ')}`).toBe(f.records)
      }
    }
  })
  it('one wrapper is "1 batch", three messages "3 records"', async () => {
    const r = await runCli([path.join(CORPUS, 'record-sets/magic0-gzip/00000000000000000000.log')])
    expect(r.stdout).toMatch(/^Summary: 1 batch, 3 records, /m)
  })
})
