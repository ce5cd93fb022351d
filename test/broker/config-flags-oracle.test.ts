// Kafka 4.4.0 itself, asked about every `cleanup --config` case of test/support/config-flag-cases.ts: its ConfigDef
// (parseType + validator) and KafkaConfig's synonym resolution, through test/broker/kafka-config-oracle.java.
// The unit test (test/analysis/cleanup/config-flags.test.ts) holds tsdump to the same answers; this one holds the
// recorded answers to Kafka. Needs java and .cache/kafka-4.4.0/lib (scripts/kafka/install.sh); skips with the reason.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { spawnSync } from 'node:child_process'
import { describe, expect, it } from 'vitest'
import { CONFIG_CASES, SYNONYM_CASES } from '../support/config-flag-cases.js'
import { REPO_ROOT } from '../support/paths.js'

const LIB = path.join(REPO_ROOT, '.cache', 'kafka-4.4.0', 'lib')

describe('Kafka 4.4.0 answers the --config cases as recorded', () => {
  it('ConfigDef and KafkaConfig', (ctx) => {
    if (!fs.existsSync(LIB)) {
      console.log(`skipping: ${LIB} missing (KAFKA_VERSION=4.4.0 bash scripts/kafka/install.sh)`)
      ctx.skip()
    }
    const args = [...CONFIG_CASES.map(([c]) => c), ...SYNONYM_CASES.map(([p]) => `@${p}`)]
    const r = spawnSync(
      'java',
      ['-Xmx256m', '-cp', `${LIB}/*`, path.join(REPO_ROOT, 'test/broker/kafka-config-oracle.java'), ...args],
      { encoding: 'utf8' },
    )
    expect(r.status, r.stderr).toBe(0)
    const got = new Map(
      r.stdout
        .split('\n')
        .filter((l) => l.includes('\t'))
        .map((l) => l.split('\t') as [string, string]),
    )
    for (const [c, want] of CONFIG_CASES) expect(got.get(c), c).toBe(want)
    for (const [p, want] of SYNONYM_CASES)
      expect(got.get(`@${p}`), p).toBe(`retention=${want.retention} roll=${want.roll}`)
  })
})
