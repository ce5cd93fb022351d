// A raw snappy block (no xerial framing: kafkajs and librdkafka may write one) is decoded whole. One that declares
// 255 MiB from 12 MiB of copies (issue #25: a deep dump peaked at 346 MiB) is refused before it is allocated. The
// block is written by hand from the snappy format description (format_description.txt: the uncompressed length
// as a varint, then a 1-byte literal and copy-2 elements of 64 bytes at offset 1).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'
import { segment } from '../support/segment-builder.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-snappy-bomb-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

function varint(n: number): Buffer {
  const out: number[] = []
  while (n >= 0x80) {
    out.push((n % 0x80) | 0x80)
    n = Math.floor(n / 0x80)
  }
  out.push(n)
  return Buffer.from(out)
}

/** a raw block of `copies` x 64 bytes (plus one literal byte) */
function rawBomb(copies: number): Buffer {
  const body = Buffer.alloc(2 + copies * 3)
  body[0] = 0x00
  body[1] = 0x61 // literal, length 1: 'a'
  for (let i = 0; i < copies; i++) {
    body[2 + i * 3] = (63 << 2) | 0b10
    body.writeUInt16LE(1, 3 + i * 3)
  } // copy-2, length 64, offset 1
  return Buffer.concat([varint(1 + copies * 64), body])
}

const haveTime = fs.existsSync('/usr/bin/time')

describe('raw snappy bombs', () => {
  it('a raw block declaring 255 MiB in a batch past the read window: DECOMPRESSED_TOO_LARGE naming the raw block, and memory stays bounded', () => {
    const p = path.join(dir, 'bomb-0')
    fs.mkdirSync(p)
    const copies = Math.floor((255 * 1024 * 1024) / 64)
    fs.writeFileSync(
      path.join(p, '00000000000000000000.log'),
      segment({ codec: 2, records: [{ key: 'k', value: 'v' }], compress: () => rawBomb(copies) }),
    )
    const args = [path.join(REPO_ROOT, 'bin/tsdump.js'), '--deep-iteration', p]
    const r = haveTime
      ? spawnSync('/usr/bin/time', ['-f', '%M', process.execPath, ...args], { encoding: 'utf8' })
      : spawnSync(process.execPath, args, { encoding: 'utf8' })
    expect(r.stderr).toMatch(
      /snappy: a raw block \(no xerial framing\) declares 267386881 bytes; it is decoded whole, and tsdump holds at most 67108864 bytes of one block \[DECOMPRESSED_TOO_LARGE\]/,
    )
    expect(r.status).toBe(1)
    if (haveTime) expect(Number(r.stderr.trim().split('\n').pop()) / 1024).toBeLessThan(128)
  }, 60_000)
})
