// `cleanup --config`: keys and values checked as Kafka 4.4.0 checks them, broker synonyms resolved as KafkaConfig
// resolves them. Truth: Kafka's answers (test/support/config-flag-cases.ts, from Kafka's own ConfigDef and KafkaConfig).
import { describe, expect, it } from 'vitest'
import { checkConfigFlag } from '../../../src/analysis/cleanup/config-flags.js'
import { resolveConfigs } from '../../../src/analysis/cleanup/configs.js'
import { runCleanup } from '../../../src/commands/cleanup.js'
import { CONFIG_CASES, SYNONYM_CASES } from '../../support/config-flag-cases.js'
import { runCli } from '../../support/run-cli.js'
import { runCommand } from '../../support/txn-segment-builder.js'

const split = (c: string): [string, string] => {
  const i = c.indexOf('=')
  return [c.slice(0, i), c.slice(i + 1)]
}
const props = (s: string): Map<string, string> => new Map(s.split(',').map(split))

describe('cleanup --config against Kafka 4.4.0', () => {
  for (const [c, kafka] of CONFIG_CASES) {
    it(`${JSON.stringify(c)}: Kafka says ${kafka}`, () => {
      const [k, v] = split(c)
      const problem = checkConfigFlag(k, v)
      if (kafka === 'OK') expect(problem).toBeNull()
      else {
        expect(problem).toContain(k)
        expect(problem).toMatch(kafka === 'UNKNOWN' ? /not a topic or broker config/ : /Kafka accepts/)
      }
    })
  }

  for (const [p, want] of SYNONYM_CASES) {
    it(`broker synonyms ${p}: retention.ms ${want.retention}, segment.ms ${want.roll} (KafkaConfig)`, () => {
      const c = resolveConfigs('t', { flags: props(p) })
      expect({ retention: c['retention.ms']!.value, roll: c['segment.ms']!.value }).toEqual(want)
      // a topic config given too wins over the broker's
      const t = resolveConfigs('t', { flags: new Map([...props(p), ['retention.ms', '1']]) })
      expect(t['retention.ms']).toEqual({ value: '1', source: '--config' })
    })
  }

  it('a bad key or value is a usage error (exit 2) naming the key and what Kafka accepts, on the command line and in runCleanup', async () => {
    const cli = await runCli(['cleanup', '--config', 'segment.bytes=1000', 'fixtures/broker-4.4/log-start/logs'])
    expect(cli.code).toBe(2)
    expect(cli.stderr).toContain('segment.bytes=1000: Kafka accepts a 32-bit integer in [1048576,...]')
    const r = await runCommand(runCleanup, {
      paths: ['fixtures/broker-4.4/log-start/logs'],
      configs: new Map([['log.retention.minutes', 'x']]),
    })
    expect(r.code).toBe(2)
    expect(r.err).toContain('log.retention.minutes=x')
  })
})
