// A zstd frame whose window Kafka refuses (issue #25): zstd-jni keeps libzstd's ZSTD_WINDOWLOG_LIMIT_DEFAULT (27),
// so a consumer fails on a frame declaring more than 2^27 bytes, while tsdump decodes it. The frames here are
// written by hand from RFC 8878 (3.1.1.1.2: Window_Descriptor = Exponent << 3 | Mantissa, window =
// 2^(10 + Exponent) + Mantissa * 2^(10 + Exponent) / 8), with one raw block holding the records as they are.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { segment } from '../support/segment-builder.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-zstd-window-'))
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))

/** one zstd frame: no content size, no checksum, the given Window_Descriptor, `data` as one raw last block */
function rawFrame(windowDescriptor: number, data: Buffer): Buffer {
  const block = Buffer.alloc(3)
  block.writeUIntLE((data.length << 3) | (0 << 1) | 1, 0, 3) // Block_Size, Block_Type raw, Last_Block
  return Buffer.concat([Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, windowDescriptor]), block, data])
}

function write(name: string, windowDescriptor: number): string {
  const p = path.join(dir, `${name}-0`)
  fs.mkdirSync(p, { recursive: true })
  const records = Array.from({ length: 3 }, (_v, i) => ({ key: `k${i}`, value: `value ${i}` }))
  fs.writeFileSync(
    path.join(p, '00000000000000000000.log'),
    segment({ codec: 4, records, compress: (b) => rawFrame(windowDescriptor, b) }),
  )
  return p
}

describe('zstd windows Kafka refuses', () => {
  it('a frame declaring 2 GiB (Exponent 21): ZSTD_WINDOW_TOO_LARGE names the batch, the records are still shown, exit 1', async () => {
    const p = write('wide', 21 << 3)
    const r = await runCli(['--deep-iteration', '--print-data-log', p])
    expect(r.stdout.match(/payload: value \d/g)).toEqual(['payload: value 0', 'payload: value 1', 'payload: value 2'])
    expect(r.stderr).toMatch(
      /position 0: batch at position 0 \(baseOffset 0\): its zstd frame at payload byte 0 declares a window of 2147483648 bytes; Kafka's consumers .*\[ZSTD_WINDOW_TOO_LARGE\]/,
    )
    expect(r.code).toBe(1)
    const j = await runCli(['--json', '--deep-iteration', p])
    expect(j.stdout).toMatch(/"code":"ZSTD_WINDOW_TOO_LARGE"/)
  })

  it("exactly 2^27 (Exponent 17) is accepted by Kafka, and so is a producer's 2 MiB (Exponent 11): no finding, exit 0", async () => {
    for (const [name, wd] of [
      ['at-limit', 17 << 3],
      ['level3', 11 << 3],
    ] as const) {
      const r = await runCli(['--deep-iteration', write(name, wd)])
      expect(r.stderr, name).not.toMatch(/ZSTD_WINDOW_TOO_LARGE/)
      expect(r.code, name).toBe(0)
    }
  })
})
