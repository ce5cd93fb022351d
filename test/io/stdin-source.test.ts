// Issue 12 item 14: `tsdump -` reads a segment from standard input through a real pipe, streaming: the
// output equals the dump of the same file, and peak memory does not follow the input size.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { encodeBatch } from '../support/segment-builder.js'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-stdin-'))
const big = path.join(dir, '00000000000000000000.log')
const MAIN = path.join(REPO_ROOT, 'dist/cli/main.js')
// runs tsdump in this process and reports its peak RSS (KiB) on fd 3
const wrapper = path.join(dir, 'run.mjs')
const BIG_MIB = 48

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }))
beforeAll(() => {
  fs.writeFileSync(
    wrapper,
    `import { writeSync } from 'node:fs'\nimport { main } from ${JSON.stringify(MAIN)}\n` +
      'process.exitCode = await main(process.argv.slice(2))\nwriteSync(3, String(process.resourceUsage().maxRSS))\n',
  )
  const value = 'v'.repeat(1000)
  const parts: Buffer[] = []
  let size = 0
  for (let off = 0; size < BIG_MIB * 1024 * 1024; off += 40) {
    const b = encodeBatch({
      baseOffset: off,
      records: Array.from({ length: 40 }, (_v, j) => ({ key: `k${j}`, value })),
    })
    parts.push(b)
    size += b.length
  }
  fs.writeFileSync(big, Buffer.concat(parts))
})

/** `producer | tsdump args`: a real pipe from a child process; returns stdout, stderr, exit code, peak RSS in MiB */
function piped(producer: string, args: string[]): { stdout: string; stderr: string; code: number; rssMiB: number } {
  const cmd = `${producer} | node ${wrapper} ${args.join(' ')} 3>${path.join(dir, 'rss')}`
  const r = spawnSync('sh', ['-c', cmd], { encoding: 'utf8', maxBuffer: 512 * 1024 * 1024 })
  return {
    stdout: r.stdout,
    stderr: r.stderr,
    code: r.status ?? -1,
    rssMiB: Number(fs.readFileSync(path.join(dir, 'rss'), 'utf8')) / 1024,
  }
}

function direct(args: string[]): { stdout: string; rssMiB: number } {
  const r = spawnSync('sh', ['-c', `node ${wrapper} ${args.join(' ')} 3>${path.join(dir, 'rss')} </dev/null`], {
    encoding: 'utf8',
    maxBuffer: 512 * 1024 * 1024,
  })
  return { stdout: r.stdout, rssMiB: Number(fs.readFileSync(path.join(dir, 'rss'), 'utf8')) / 1024 }
}

const body = (s: string): string =>
  s
    .split('\n')
    .slice(2)
    .join('\n')
    .replace(/ of \S+$/m, '')

describe('tsdump - (standard input)', () => {
  it(`a ${BIG_MIB} MiB segment through a pipe: the same dump as the file, in bounded memory`, () => {
    const file = direct([big])
    const viaPipe = piped(`cat ${big}`, ['-'])
    expect(viaPipe.code).toBe(0)
    expect(viaPipe.stdout.split('\n').slice(0, 2)).toEqual([
      'Dumping -',
      'Log starting offset: unknown (standard input)',
    ])
    expect(body(viaPipe.stdout)).toBe(body(file.stdout))
    expect(viaPipe.stdout).toMatch(/Summary: \d{4} batches/)
    console.log(
      `peak RSS: file ${file.rssMiB.toFixed(0)} MiB, stdin ${viaPipe.rssMiB.toFixed(0)} MiB for a ${BIG_MIB} MiB input`,
    )
    // one sliding window (8 MiB) more than the file's positional reads; buffering the input would add 48 MiB
    expect(viaPipe.rssMiB - file.rssMiB).toBeLessThan(24)
  })
  it('small windows and odd pipe chunks give the same batches (carry-over across reads)', () => {
    const file = direct(['--window', '64KiB', big])
    // the producer writes in 7 KiB pieces with pauses, so reads come back short
    const slow = `node -e "const fs=require('fs');const b=fs.readFileSync('${big}');let i=0;const t=setInterval(()=>{for(let k=0;k<64&&i<b.length;k++,i+=7000)fs.writeSync(1,b.subarray(i,i+7000));if(i>=b.length)clearInterval(t)},1)"`
    const viaPipe = piped(slow, ['--window', '64KiB', '-'])
    expect(viaPipe.code).toBe(0)
    expect(body(viaPipe.stdout)).toBe(body(file.stdout))
  })
  it('deep iteration, a truncated tail and framing damage read from stdin as from the file (no resync: it cannot seek back)', () => {
    const log = path.join(FIXTURES, 'orders/logs/orders-11-0/00000000000000000000.log')
    const deep = piped(`cat ${log}`, ['--deep-iteration', '--print-data-log', '-'])
    expect(body(deep.stdout)).toBe(body(direct(['--deep-iteration', '--print-data-log', log]).stdout))
    const cut = piped(`head -c 1000 ${log}`, ['-'])
    expect(cut.code).toBe(1)
    expect(cut.stderr).toMatch(/position 511: .*declares 563 bytes, only 489 remain \[TRUNCATED_TAIL\]/)
    const bytes = fs.readFileSync(log)
    const damaged = path.join(dir, 'damaged.bin')
    fs.writeFileSync(
      damaged,
      Buffer.concat([bytes.subarray(0, 511), Buffer.from('garbage'.repeat(10)), bytes.subarray(511)]),
    )
    const bad = piped(`cat ${damaged}`, ['-'])
    expect(bad.code).toBe(1)
    expect(bad.stderr).toMatch(
      /position 511: magic \d+ is not 0, 1 or 2; 711 bytes from here could not be read .*save it to a file/,
    )
    expect(bad.stdout).toContain('Summary: 2 batches')
  })
  it('an endless stream without a valid batch (< /dev/zero, /dev/urandom) stops after 64 MiB with STREAM_NOT_ENDING and exit 2', () => {
    for (const device of ['/dev/zero', '/dev/urandom']) {
      const r = spawnSync('sh', ['-c', `node ${path.join(REPO_ROOT, 'bin/tsdump.js')} --json - < ${device}`], {
        encoding: 'utf8',
        timeout: 60_000,
      })
      expect(r.status, `${device}: ${r.stderr}`).toBe(2)
      expect(r.stderr).toMatch(
        /-: position 0: the input went on for 67108864 bytes from here without a valid batch and did not end.*\[STREAM_NOT_ENDING\]/,
      )
    }
    // after valid batches: those are dumped, then the same stop
    const log = path.join(FIXTURES, 'orders/logs/orders-11-0/00000000000000000000.log')
    const r = spawnSync('sh', ['-c', `(cat ${log}; cat /dev/zero) | node ${path.join(REPO_ROOT, 'bin/tsdump.js')} -`], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(r.status).toBe(2)
    expect(r.stdout).toMatch(/Summary: 4 batches, 16 records/)
    expect(r.stderr).toMatch(/position 1152: the input went on .*\[STREAM_NOT_ENDING\]/)
  }, 120_000)

  it('an entry larger than tsdump holds of a stream (32 MiB) is BAD_LENGTH with what to do, in bounded memory', () => {
    const f = path.join(dir, 'one-big-batch.log')
    fs.writeFileSync(f, encodeBatch({ baseOffset: 0, records: [{ key: 'k', value: 'x'.repeat(40 * 1024 * 1024) }] }))
    const r = piped(`cat ${f}`, ['-'])
    expect(r.code).toBe(1)
    expect(r.stderr).toMatch(
      /-: position 0: entry size \d+ is more than tsdump holds of a stream \(33554432 bytes\): save the input to a file to read it.*\[BAD_LENGTH\]/,
    )
    expect(r.rssMiB).toBeLessThan(128)
    const asFile = spawnSync('node', [path.join(REPO_ROOT, 'bin/tsdump.js'), f], { encoding: 'utf8' })
    expect(asFile.status).toBe(0) // the same bytes as a file are read (streamed past the window)
  }, 120_000)

  it('standard input named twice is a usage error', () => {
    const twice = piped(`cat ${big}`, ['-', '-'])
    expect(twice.code).toBe(2)
    expect(twice.stderr).toContain('standard input can be named only once')
  })
})

describe('tsdump - on a terminal', () => {
  const python = spawnSync('python3', ['-c', 'import pty'], { stdio: 'ignore' }).status === 0
  if (!python) console.log('skipping: python3 with the pty module is not available')
  it.runIf(python)('standard input that is a terminal is refused with exit 2 (nothing to read but typing)', () => {
    const harness =
      'import os, pty, sys\npid, fd = pty.fork()\nif pid == 0:\n    os.execvp(sys.argv[1], sys.argv[1:])\nout = b""\n' +
      'while True:\n    try:\n        d = os.read(fd, 65536)\n    except OSError:\n        break\n    if not d:\n        break\n    out += d\n' +
      '_, st = os.waitpid(pid, 0)\nsys.stdout.write(out.decode("latin1"))\nsys.exit(os.WEXITSTATUS(st))\n'
    const r = spawnSync('python3', ['-c', harness, 'node', path.join(REPO_ROOT, 'bin/tsdump.js'), '-'], {
      encoding: 'utf8',
      timeout: 60_000,
    })
    expect(r.status).toBe(2)
    expect(r.stdout).toContain('standard input is a terminal')
  })
})

describe('- with the partition commands', () => {
  it('reconcile, txns and lso refuse standard input with exit 2 and say why', () => {
    for (const cmd of ['reconcile', 'txns', 'lso']) {
      const r = spawnSync(
        'sh',
        [
          '-c',
          `cat ${path.join(FIXTURES, 'orders/logs/orders-11-0/00000000000000000000.log')} | node ${path.join(REPO_ROOT, 'bin/tsdump.js')} ${cmd} -`,
        ],
        { encoding: 'utf8' },
      )
      expect(r.status).toBe(2)
      expect(r.stderr).toContain('standard input is read by the dump only')
    }
  })
})
