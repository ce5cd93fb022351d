// --kafka-version: which release's kafka-dump-log text and conventions apply. The per-release texts themselves are
// checked against every release's own kafka-dump-log in test/fixtures/compat-releases.test.ts; this covers the option.
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const cwd = path.join(REPO_ROOT, 'fixtures/broker/kraft/logs')
const LOG = '__cluster_metadata-0/00000000000000000000.log'

describe('--kafka-version', () => {
  it('accepts a minor or a patch release, rejects others with a usage error', async () => {
    for (const v of ['3.9', '3.9.1', '4.4', '4.4.0', '4.2.7']) {
      expect((await runCli(['--compat', '--kafka-version', v, '--files', LOG], { cwd })).code, v).toBe(0)
    }
    for (const v of ['4', '4.5', '3.8.0', '4.4.0-rc1', 'latest']) {
      const r = await runCli(['--compat', '--kafka-version', v, '--files', LOG], { cwd })
      expect(r.code, v).toBe(2)
      expect(r.stderr).toContain('is not a supported Kafka release')
    }
  })

  it('LEADER_CHANGE: JSON from 4.1 (KAFKA-19069), in --compat and in the default mode; 4.4 is the default', async () => {
    const text = async (...a: string[]): Promise<string> =>
      (await runCli([...a, '--deep-iteration', '--no-summary', '--no-color', '--files', LOG], { cwd })).stdout
    for (const mode of [['--compat'], []]) {
      expect(await text(...mode, '--kafka-version', '3.9')).toContain(' controlType: LEADER_CHANGE(2)')
      expect(await text(...mode, '--kafka-version', '4.0')).not.toContain(' LeaderChange: {')
      expect(await text(...mode, '--kafka-version', '4.1')).toContain(' LeaderChange: {"version":0,"leaderId":')
      expect(await text(...mode)).toContain(' LeaderChange: {"version":0,"leaderId":')
    }
  })
})
