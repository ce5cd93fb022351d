// Every finding of `cleanup` is located, in text and JSON: by its file and byte position, or by its partition and
// offsets. A damaged copy of fixtures/broker/compacted's partition (no log directory beside it, so no checkpoint and
// no metadata log), cut 20 bytes into the batch kafka-dump-log places at offset 17 (position 191 in its stored text).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCleanup } from '../../src/commands/cleanup.js'
import { runCommand } from '../support/txn-segment-builder.js'
import { REPO_ROOT } from '../support/paths.js'

const SRC = path.join(REPO_ROOT, 'fixtures/broker/compacted')
const NOW = Date.parse('2026-12-06T15:00:00Z')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-cleanup-places-'))
afterAll(() => {
  fs.rmSync(tmp, { recursive: true, force: true })
})

/** the position kafka-dump-log gives the batch at `baseOffset` */
function dumpPosition(baseOffset: number): number {
  const text = fs.readFileSync(path.join(SRC, 'dump/compacted-0/00000000000000000000.log.shallow.txt'), 'utf8')
  const m = new RegExp(`^baseOffset: ${baseOffset} .* position: (\\d+) `, 'm').exec(text)
  return Number(m![1])
}

interface JsonFinding {
  code: string
  file?: string
  position?: number
  partition?: string
  firstOffset?: number
  lastOffset?: number
}

describe('cleanup: every finding carries its place', () => {
  const part = path.join(tmp, 'compacted-0')
  fs.cpSync(path.join(SRC, 'logs/compacted-0'), part, { recursive: true })
  const batch = dumpPosition(17)
  const seg = path.join(part, '00000000000000000000.log')
  fs.truncateSync(seg, batch + 20)

  it('JSON: file and position, or partition and offsets', async () => {
    const r = await runCommand(runCleanup, {
      paths: [part],
      now: NOW,
      format: 'json',
      configs: new Map([['cleanup.policy', 'compact']]),
    })
    const found = (JSON.parse(r.out) as { partitions: Array<{ findings: JsonFinding[] }> }).partitions[0]!.findings
    expect(found.map((f) => f.code)).toEqual(
      expect.arrayContaining(['TRUNCATED_TAIL', 'CLEANER_CHECKPOINT_UNREADABLE']),
    )
    for (const f of found) {
      const placed =
        (f.file !== undefined && f.position !== undefined) ||
        (f.partition === 'compacted-0' && f.firstOffset !== undefined && f.lastOffset !== undefined)
      expect(placed, JSON.stringify(f)).toBe(true)
    }
    expect(found.find((f) => f.code === 'TRUNCATED_TAIL')).toMatchObject({ file: seg, position: batch })
  })

  it('text: the same places', async () => {
    const r = await runCommand(runCleanup, {
      paths: [part],
      now: NOW,
      format: 'text',
      configs: new Map([['cleanup.policy', 'compact']]),
    })
    const text = r.out.replace(/\n {2}/g, ' ')
    expect(text).toContain(`TRUNCATED_TAIL: ${seg}: position ${batch}:`)
    expect(text).toMatch(
      /CLEANER_CHECKPOINT_UNREADABLE: \S+cleaner-offset-checkpoint: compacted-0: offsets \d+\.\.\d+:/,
    )
  })
})
