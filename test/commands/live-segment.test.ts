// A live broker's active segment (issue #12 item 3): its .index and .timeindex are preallocated and
// zero-filled (segment.index.bytes) until log.index.interval.bytes of log are written. That is normal:
// kafka-dump-log exits 0. The fixture was copied from a running Kafka 3.9.1 broker (fixtures/README.md).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'

const SCENARIO = path.join(FIXTURES, 'live-active')
const REL = 'fixtures/broker/live-active/live-small-0/00000000000000000000'
// kafka-dump-log names the index by its absolute path; it ran in the worktree recorded here
const CAPTURED_ROOT = '/work/wt/operator2/'

function kafka(name: string): string {
  return fs.readFileSync(path.join(SCENARIO, name), 'utf8').replaceAll(CAPTURED_ROOT, REPO_ROOT + '/')
}

describe('the active segment of a running broker', () => {
  it('the zero-filled index files are not damage: exit 0, no error, one info note each', async () => {
    const r = await runCli([path.join(SCENARIO, 'live-small-0')])
    expect(r.code).toBe(0)
    expect(r.stderr).not.toMatch(/INDEX_MISMATCH|TIMEINDEX_|error/)
    expect(r.stderr.match(/\[INDEX_PREALLOCATED\]/g)).toHaveLength(2)
    expect(r.stdout).not.toMatch(/^offset: 0 position: 0$/m)
  })
  it('--verify-index-only and --index-sanity-check exit 0 on it too', async () => {
    for (const mode of ['--verify-index-only', '--index-sanity-check']) {
      const r = await runCli([mode, `${REL}.index`, `${REL}.timeindex`], { cwd: REPO_ROOT })
      expect(r.code).toBe(0)
      expect(r.stderr).not.toContain('error')
    }
  })
  it('--compat prints what kafka-dump-log 3.9.1 printed, byte for byte, and exits 0 as it did', async () => {
    const r = await runCli(['--compat', '--kafka-version', '3.9', `${REL}.index`, `${REL}.timeindex`, `${REL}.log`], {
      cwd: REPO_ROOT,
    })
    expect(r.stdout).toBe(kafka('kafka-dump-log-3.9.1.txt'))
    expect(r.stderr + 'exit 0\n').toBe(kafka('kafka-dump-log-3.9.1.stderr.txt'))
    expect(r.code).toBe(0)
  })
})
