// Every key and value of the __transaction_state records the fixtures' brokers wrote (FIXTURES and FIXTURES_44), each a
// copy: the tests of the coordinator value's in-place walks check them against the general decoder.
import * as fs from 'node:fs'
import * as path from 'node:path'
import fc from 'fast-check'
import { readLog } from '../../src/decode/log-reader.js'
import { decodeRecords } from '../../src/decode/records.js'
import { BufferSource } from '../../src/io/buffer-source.js'
import { FIXTURES, FIXTURES_44 } from './paths.js'

function stateLogs(dir: string): string[] {
  return fs
    .readdirSync(dir, { withFileTypes: true, recursive: true })
    .filter(
      (e) => e.isFile() && e.name.endsWith('.log') && path.basename(e.parentPath).startsWith('__transaction_state-'),
    )
    .map((e) => path.join(e.parentPath, e.name))
    .sort()
}

/** the fixtures' coordinator records' keys and values, in file order */
export function fixtureStateRecords(): { keys: Buffer[]; values: Buffer[] } {
  const keys: Buffer[] = []
  const values: Buffer[] = []
  for (const f of [...stateLogs(FIXTURES), ...stateLogs(FIXTURES_44)]) {
    for (const ev of readLog(new BufferSource(fs.readFileSync(f)), { verifyCrc: false })) {
      if (ev.kind !== 'batch' || !ev.complete || ev.header.isControl) continue
      for (const r of decodeRecords(ev.header, ev.bytes)) {
        if (r.key !== null) keys.push(Buffer.from(r.key)) // copies: the window is reused
        if (r.value !== null) values.push(Buffer.from(r.value))
      }
    }
  }
  return { keys, values }
}

/**
 * `agree` (which asserts that a walk and the general decoder agree) on the fixtures' values with a byte changed,
 * cut short or lengthened, `pad` bytes before each in its buffer: fast-check's 5,000 runs
 */
export function agreeOnMutatedValues(values: Buffer[], agree: (value: Buffer, pad: number) => unknown): void {
  fc.assert(
    fc.property(
      fc.nat(values.length - 1),
      fc.nat(),
      fc.integer({ min: 0, max: 255 }),
      fc.integer({ min: -8, max: 8 }),
      fc.nat(5),
      (i, at, byte, resize, pad) => {
        const v = Buffer.from(values[i]!) // copy: changed below
        v[at % v.length] = byte
        const sized =
          resize < 0 ? v.subarray(0, Math.max(0, v.length + resize)) : Buffer.concat([v, Buffer.alloc(resize, byte)])
        agree(sized, pad)
      },
    ),
    { numRuns: 5000 },
  )
}
