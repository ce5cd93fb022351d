// The committed tables in src/decode/protocol/generated/ are what scripts/gen-schemas.mjs makes from the Kafka jars.
// Runs when the jars are in .cache/schema-jars (`node scripts/gen-schemas.mjs` fetches them with mvn);
// skips with the reason otherwise.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'

const ROOT = path.resolve(__dirname, '../../..')
const JARS = path.join(ROOT, '.cache', 'schema-jars')
const reason = fs.existsSync(path.join(JARS, '4.4.0'))
  ? null
  : `no Kafka jars in ${path.relative(ROOT, JARS)}: run node scripts/gen-schemas.mjs`
if (reason !== null) console.log(`skipping generated-table check: ${reason}`)

describe('generated schema tables', () => {
  it.skipIf(reason !== null)('equal a fresh generation from the Kafka jars', (ctx) => {
    const r = spawnSync(process.execPath, [path.join(ROOT, 'scripts', 'gen-schemas.mjs'), '--check'], {
      encoding: 'utf8',
    })
    expect(r.stderr).toBe('')
    // exit 3: some release's jars are missing (gen-schemas prints which), so the tables cannot be judged: a skip, not a pass
    if (r.status === 3) {
      const why = `skipping generated-table check: ${r.stdout.trim().split('\n').at(-1) ?? 'jars missing'}`
      console.log(why)
      ctx.skip(why)
    }
    expect(r.status).toBe(0)
  })
})
