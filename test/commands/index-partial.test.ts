// Partial trailing entries of .index and .timeindex are reported, as .txnindex's are (issue #12 item 4).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { CORPUS, corpusAvailable } from '../support/paths.js'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-partial-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))
const SRC = path.join(CORPUS, 'idempotent-rolled/timeindex_test-0')

describe.skipIf(!corpusAvailable())('a torn index file', () => {
  it('dump and --verify-index-only report the bytes after the last whole entry; the whole entries still verify', async () => {
    const dir = path.join(tmp, 'timeindex_test-0')
    fs.mkdirSync(dir, { recursive: true })
    for (const f of fs.readdirSync(SRC)) fs.copyFileSync(path.join(SRC, f), path.join(dir, f))
    const index = path.join(dir, '00000000000000007729.index')
    const time = path.join(dir, '00000000000000007729.timeindex')
    const [n8, n12] = [fs.statSync(index).size, fs.statSync(time).size]
    fs.appendFileSync(index, Buffer.from([0, 0, 1]))
    fs.appendFileSync(time, Buffer.from([0, 0, 0, 0, 0, 7]))
    for (const mode of [[], ['--verify-index-only']]) {
      const r = await runCli([...mode, index, time])
      expect(r.code, mode.join(' ')).toBe(1)
      expect(r.stderr).toContain(
        `${index}: position ${n8}: 3 bytes at the end do not make a whole 8-byte entry (ignored, as the broker does) [INDEX_PARTIAL_ENTRY]`,
      )
      expect(r.stderr).toContain(
        `${time}: position ${n12}: 6 bytes at the end do not make a whole 12-byte entry (ignored, as the broker does) [TIMEINDEX_PARTIAL_ENTRY]`,
      )
      expect(r.stderr).not.toMatch(/MISMATCH|NOT_FOUND|BAD_POSITION/)
    }
    // --compat stays kafka-dump-log's text: no finding
    expect((await runCli(['--compat', '--verify-index-only', index])).stderr).not.toContain('PARTIAL')
  })
})
