// doctor reads Aiven's tiered storage as the other commands do (--remote-layout/--remote-prefix/--remote-key):
// on the encrypted fixture with its key, no remote finding; without the key, the key finding and no false
// missing segment. The truth of the counts (the Java consumers' 7/20) is test/remote/aiven.test.ts's.
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES_44 } from '../support/paths.js'

const dir = path.join(FIXTURES_44, 'tiered-aiven-encrypted')
const base = [
  'doctor',
  '--json',
  '--now',
  '2027-06-01T00:00:00Z',
  path.join(dir, 'logs'),
  '--remote-storage',
  path.join(dir, 'remote'),
]
const codes = (stdout: string): string[] =>
  (JSON.parse(stdout) as { findings: Array<{ code: string }> }).findings.map((f) => f.code)

describe("doctor over Aiven's encrypted tiered storage", () => {
  it("with the key: the remote segments read, no remote finding but cleanup's, remote among the checks", async () => {
    const r = await runCli([...base, '--remote-key', path.join(dir, 'keys/private.pem')])
    expect(r.code, r.stderr).toBeLessThan(2)
    // cleanup does not read remote storage yet (issue 30 item 4), and says so; every other analysis read it
    const remote = (
      JSON.parse(r.stdout) as { findings: Array<{ code: string; reportedBy: string[] }> }
    ).findings.filter((f) => f.code.startsWith('REMOTE_'))
    expect(remote.map((f) => `${f.code} ${f.reportedBy.join(',')}`)).toEqual(
      remote.map(() => 'REMOTE_NOT_READ cleanup'),
    )
    expect((JSON.parse(r.stdout) as { summary: { checked: string[] } }).summary.checked).toContain('remote')
  })

  it('without the key: REMOTE_KEY_UNUSABLE, never a missing segment', async () => {
    const r = await runCli(base)
    expect(codes(r.stdout)).toContain('REMOTE_KEY_UNUSABLE')
    expect(codes(r.stdout)).not.toContain('REMOTE_SEGMENT_MISSING')
    expect(r.code).toBe(1)
  })
})
