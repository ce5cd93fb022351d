// The read window is an implementation detail: window sizes {61, 62, 100, 4096, file size} must give
// identical output on real files, intact and damaged (file-type's "odd chunk sizes" test).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { detachEvent, readLog } from '../../src/decode/log-reader.js'
import type { LogEvent } from '../../src/decode/log-reader.js'
import { FileSource } from '../../src/io/file-source.js'
import { flipBit } from '../support/segment-builder.js'
import { frameBoundaries, realLogs, rmrf, run, tmp, writeLog } from './support.js'

const dir = tmp()
afterAll(() => rmrf(dir))

const logs = realLogs()
if (logs.length === 0) console.log('skipping window invariance on real files: no real segments found')

function windows(size: number): number[] {
  return [61, 62, 100, 4096, Math.max(61, size)]
}

/** a window-independent digest of an event */
function digest(e: LogEvent, headersOnly: boolean): string {
  switch (e.kind) {
    case 'batch':
      return (
        `batch ${e.header.position} ${e.header.baseOffset}..${e.header.lastOffset} crc=${headersOnly ? '-' : String(e.crcValid)} ` +
        // header-only scans verify the CRC only of batches that happen to be in the window: by design, not compared
        `${e.control?.typeName ?? ''} ${e.problems
          .filter((p) => !headersOnly || p.code !== 'CRC_MISMATCH')
          .map((p) => `${p.code}@${p.position}`)
          .join(',')}`
      )
    case 'legacy':
      return `legacy ${e.position} ${e.sizeInBytes}`
    case 'tail':
      return `tail ${e.position} ${e.length} ${e.reason} ${e.declaredSize ?? ''}`
    case 'corrupt':
      return `corrupt ${e.position} ${e.code} ${e.length} ${e.resyncPosition ?? ''}`
  }
}

function events(file: string, window: number, headersOnly = false): string[] {
  const src = new FileSource(file)
  try {
    return Array.from(readLog(src, { window, resync: true, headersOnly }), (e) => digest(detachEvent(e), headersOnly))
  } finally {
    src.close()
  }
}

/** intact, truncated, zero-tailed and damaged-in-the-middle variants of a real log */
function variants(p: string): Array<[string, string]> {
  const whole = fs.readFileSync(p)
  // large files: a batch-aligned prefix of about 64 KiB keeps 60 scans with a 61-byte window quick
  const all = frameBoundaries(whole)
  const buf = whole.length > 65536 ? whole.subarray(0, all.filter((x) => x <= 65536).pop()) : whole
  const b = frameBoundaries(buf)
  const mid = b[Math.floor(b.length / 2)]!
  const out: Array<[string, Buffer]> = [
    ['intact', buf],
    ['truncated', buf.subarray(0, Math.max(0, buf.length - 7))],
    ['zero-tail', Buffer.concat([buf, Buffer.alloc(777)])],
    ['bit-flip', flipBit(buf, (mid + 30) * 8)],
    ['garbage-middle', Buffer.concat([buf.subarray(0, mid), Buffer.alloc(150, 0x5a), buf.subarray(mid)])],
    [
      'bad-length',
      (() => {
        const c = Buffer.from(buf)
        if (mid + 12 <= c.length) c.writeInt32BE(7, mid + 8)
        return c
      })(),
    ],
  ]
  const name = path.basename(path.dirname(p))
  return out.map(([k, v]) => [k, writeLog(path.join(dir, `${name}-${k}`), v)])
}

describe.skipIf(logs.length === 0)('window invariance', () => {
  it.each(logs.map((p) => [path.basename(path.dirname(p)), p] as const))(
    '%s: decoder events, intact and damaged',
    (_n, p) => {
      for (const [kind, file] of variants(p)) {
        const size = fs.statSync(file).size
        for (const headersOnly of [false, true]) {
          const ref = events(file, size + 1, headersOnly)
          for (const w of windows(size))
            expect(events(file, w, headersOnly), `${kind} window ${w} headersOnly=${headersOnly}`).toEqual(ref)
        }
      }
    },
  )

  it('CLI output is byte-identical for every window (deep on small files, shallow on large ones)', async () => {
    for (const p of logs) {
      const size = fs.statSync(p).size
      const flags = size > 65536 ? [] : ['--deep-iteration', '--print-data-log']
      const outs = new Set<string>()
      for (const w of windows(size)) {
        const r = await run([...flags, '--window', String(w), p])
        outs.add(`${r.code}\n${r.stdout}\n${r.stderr}`)
      }
      expect(outs.size, p).toBe(1)
    }
  })
})
