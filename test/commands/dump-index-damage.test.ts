// An index entry that points into bytes of its log the same dump could not read is the log's damage, not the
// index's: the entry is not judged (INDEX_NOT_CHECKED, TIMEINDEX_NOT_CHECKED) and the index is not blamed. The
// damage is written into a copy of the interleaved fixture's mixed-0 segment at a batch position taken from
// kafka-dump-log's stored text (the batch the .index's second entry names).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'

const PART = path.join(FIXTURES, 'interleaved', 'logs', 'mixed-0')
const SEGMENT = '00000000000000000046'
const positions = fs
  .readFileSync(path.join(FIXTURES, 'interleaved', 'dump', 'mixed-0', `${SEGMENT}.log.shallow.txt`), 'utf8')
  .split('\n')
  .filter((l) => l.startsWith('baseOffset:'))
  .map((l) => Number(/ position: (\d+)/.exec(l)![1]))
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-index-damage-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

function copy(name: string, damageAt?: number): string {
  const dir = path.join(tmp, name, 'mixed-0')
  fs.cpSync(PART, dir, { recursive: true })
  if (damageAt !== undefined) {
    const fd = fs.openSync(path.join(dir, `${SEGMENT}.log`), 'r+')
    try {
      fs.writeSync(fd, Buffer.alloc(40, 0xff), 0, 40, damageAt)
    } finally {
      fs.closeSync(fd)
    }
  }
  return dir
}
const codes = (stderr: string): string[] => [...stderr.matchAll(/\[([A-Z_]+)\]$/gm)].map((m) => m[1]!)

describe('dump: an index entry pointing into damaged log bytes', () => {
  it('the fixture holds what the test needs: an .index entry at a batch position', () => {
    const idx = fs.readFileSync(path.join(PART, `${SEGMENT}.index`))
    expect(idx.length).toBeGreaterThanOrEqual(16)
    expect(positions).toContain(idx.readInt32BE(12))
  })

  it('undamaged: no index finding', async () => {
    const r = await runCli(['dump', copy('intact')])
    expect(codes(r.stderr).filter((c) => c.includes('INDEX'))).toEqual([])
  })

  it('damaged where the second entry points: not checked, the log blamed, never the index', async () => {
    const at = fs.readFileSync(path.join(PART, `${SEGMENT}.index`)).readInt32BE(12)
    const r = await runCli(['dump', copy('damaged', at)])
    const found = codes(r.stderr)
    expect(found).toContain('BAD_LENGTH')
    expect(found).toContain('INDEX_NOT_CHECKED')
    expect(found).toContain('TIMEINDEX_NOT_CHECKED')
    expect(found).not.toContain('INDEX_BAD_POSITION')
    expect(found).not.toContain('TIMEINDEX_OFFSET_NOT_FOUND')
    expect(r.stderr).toMatch(new RegExp(`\\.log: position ${at}: .*\\[BAD_LENGTH\\]`))
  })
})
