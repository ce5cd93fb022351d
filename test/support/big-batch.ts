// One v2 batch of any size as a sparse file (header written, records section a hole of zeros), with a
// correct CRC-32C, and a child-process run of the CLI that reports its peak RSS. For the memory bounds of
// issue #14: a batch larger than the read window must not be held whole.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { crc32cUpdate } from '../../src/bytes/crc32c.js'
import { REPO_ROOT as repoRoot } from './paths.js'

/** write the batch at `file`; codec 1 (gzip) so the record count is not bounded by the bytes, shallow reads only */
export function writeSparseBatch(file: string, total: number, opts: { badCrc?: boolean } = {}): void {
  const h = Buffer.alloc(61)
  h.writeInt32BE(total - 12, 8)
  h[16] = 2
  h.writeInt16BE(1, 21)
  h.writeBigInt64BE(1n, 27)
  h.writeBigInt64BE(1n, 35)
  h.writeBigInt64BE(-1n, 43)
  h.writeInt16BE(-1, 51)
  h.writeInt32BE(-1, 53)
  h.writeInt32BE(1, 57)
  let crc = crc32cUpdate(0, h.subarray(21))
  const zeros = Buffer.alloc(1 << 20)
  for (let left = total - 61; left > 0; left -= zeros.length)
    crc = crc32cUpdate(crc, left >= zeros.length ? zeros : zeros.subarray(0, left))
  h.writeUInt32BE(opts.badCrc === true ? (crc ^ 1) >>> 0 : crc, 17)
  const fd = fs.openSync(file, 'w')
  try {
    fs.writeSync(fd, h, 0, 61, 0)
    fs.ftruncateSync(fd, total)
  } finally {
    fs.closeSync(fd)
  }
}

export interface MeasuredRun {
  code: number | null
  stdout: string
  stderr: string
  maxRssMiB: number
}

/** bin/tsdump.js in a child process; peak RSS from process.resourceUsage() at its exit */
export function runMeasured(argv: string[]): MeasuredRun {
  const probe = path.join(path.dirname(argv[argv.length - 1]!), 'rss-probe.mjs')
  fs.writeFileSync(
    probe,
    `process.on('exit', () => process.stderr.write('\\nMAXRSS ' + process.resourceUsage().maxRSS + '\\n'))\n` +
      `await import(${JSON.stringify(path.join(repoRoot, 'bin', 'tsdump.js'))})\n`,
  )
  const r = spawnSync(process.execPath, [probe, ...argv], { encoding: 'utf8', maxBuffer: 1 << 26 })
  const m = /MAXRSS (\d+)/.exec(r.stderr)
  return {
    code: r.status,
    stdout: r.stdout,
    stderr: r.stderr.replace(/\nMAXRSS \d+\n/, ''),
    maxRssMiB: m === null ? NaN : Number(m[1]) / 1024,
  }
}
