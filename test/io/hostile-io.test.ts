// io/ against files that are not what they claim: FIFOs, devices, huge sparse indexes, files that shrink
// while read, names that are not UTF-8, non-Kafka files named on the command line, and outputs that fail.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FdWriter } from '../../src/cli/fd-writer.js'
import type { CommandContext } from '../../src/commands/context.js'
import { main } from '../../src/cli/main.js'
import { FileSource, readSmallFile } from '../../src/io/file-source.js'
import { InputError } from '../../src/io/input-error.js'
import { escapeName } from '../../src/io/raw-names.js'
import { simpleSegment } from '../support/segment-builder.js'
import { codes, expectNoCrash, findings, rmrf, run, testContext, tmp } from '../hostile/support.js'

const dir = tmp('tsdump-io-')
afterAll(() => rmrf(dir))
const LOG = '00000000000000000000.log'
let n = 0
function partition(files: Record<string, Buffer | string> = {}): string {
  const p = path.join(dir, `case${n++}`, 'topic-0')
  fs.mkdirSync(p, { recursive: true })
  for (const [name, data] of Object.entries(files)) fs.writeFileSync(path.join(p, name), data)
  return p
}
const haveFifo = spawnSync('mkfifo', ['--version']).status === 0

describe('only regular files are read', () => {
  it.runIf(haveFifo)(
    'a FIFO .txnindex and .snapshot and a FIFO replication-offset-checkpoint: reconcile, txns and lso answer at once',
    async () => {
      const p = partition({ [LOG]: simpleSegment(3) })
      spawnSync('mkfifo', [
        path.join(p, '00000000000000000000.txnindex'),
        path.join(p, '00000000000000000006.snapshot'),
        path.join(path.dirname(p), 'replication-offset-checkpoint'),
      ])
      for (const cmd of ['reconcile', 'txns', 'lso']) {
        const r = await run([cmd, path.dirname(p)])
        expectNoCrash(r)
        expect(codes(r.stderr)).toContain('NOT_REGULAR_FILE')
        for (const f of findings(r.stderr).filter((x) => x.code === 'NOT_REGULAR_FILE')) {
          expect(f.position).toBe(0)
          expect(f.message).toMatch(/FIFO/)
        }
      }
    },
  )

  it('a replication-offset-checkpoint linked to /dev/zero or /dev/urandom is never read', async () => {
    for (const dev of ['/dev/zero', '/dev/urandom']) {
      const p = partition({ [LOG]: simpleSegment(3) })
      fs.symlinkSync(dev, path.join(path.dirname(p), 'replication-offset-checkpoint'))
      const r = await run(['reconcile', '--json', path.dirname(p)])
      expectNoCrash(r)
      expect(JSON.parse(r.stdout).partitions[0].highWatermarkSource).not.toBe('checkpoint')
    }
  })

  it('FileSource refuses a FIFO, a device and a directory without blocking', () => {
    const p = partition()
    const fifo = path.join(p, 'f.log')
    if (haveFifo) spawnSync('mkfifo', [fifo])
    for (const x of [...(haveFifo ? [fifo] : []), '/dev/zero', p]) {
      expect(() => new FileSource(x)).toThrow(InputError)
      try {
        readSmallFile(x)
      } catch (e) {
        expect((e as InputError).code).toBe('NOT_REGULAR_FILE')
      }
    }
  })
})

describe('bounded reads', () => {
  it('sparse .index, .timeindex, .txnindex and .snapshot over 2 GiB and over 4 GiB: all read in windows, no FILE_TOO_LARGE, no internal error', async () => {
    for (const size of [2 ** 31 + 8, 2 ** 32 + 8]) {
      const p = partition({ [LOG]: simpleSegment(3) })
      for (const k of ['index', 'timeindex', 'txnindex', 'snapshot']) {
        const f = path.join(p, `00000000000000000000.${k}`)
        fs.writeFileSync(f, '')
        fs.truncateSync(f, size)
      }
      const r = await run([p])
      expectNoCrash(r)
      // the zero-filled .snapshot has version 0: a finding (exit 1), decided from its header alone (issue #25)
      expect(r.code).toBe(1)
      expect(findings(r.stderr).filter((f) => f.code === 'FILE_TOO_LARGE')).toEqual([])
      const schema = findings(r.stderr).filter((f) => f.code === 'SNAPSHOT_SCHEMA')
      expect(schema.map((f) => [path.extname(f.file!), f.position])).toEqual([['.snapshot', 0]])
      // dump reads fixed-size-entry files in windows: a zero-filled index of any size is preallocated space
      const prealloc = findings(r.stderr).filter((f) => f.code === 'INDEX_PREALLOCATED')
      expect(prealloc.map((f) => path.extname(f.file!)).sort()).toEqual(['.index', '.timeindex'])
      expect(prealloc.every((f) => f.message.includes(String(size)))).toBe(true)
      // reconcile: the .txnindex ends at its first all-zero entry (as the dump's does), the .snapshot is not used
      const rec = await run(['reconcile', p])
      expectNoCrash(rec)
      expect(rec.code).toBe(1)
      expect(findings(rec.stderr).filter((f) => f.code === 'FILE_TOO_LARGE')).toEqual([])
      expect(
        findings(rec.stderr)
          .filter((f) => f.code === 'SNAPSHOT_SCHEMA')
          .map((f) => path.extname(f.file!)),
      ).toEqual(['.snapshot'])
      expect(rec.stderr).not.toMatch(/out of range/)
    }
  })

  it('a file that shrinks while it is read: FILE_CHANGED with its size now, not the size at open', () => {
    const p = partition({ [LOG]: simpleSegment(3) })
    const f = path.join(p, LOG)
    const src = new FileSource(f)
    const size = src.size
    fs.truncateSync(f, 10)
    try {
      src.readAt(0, size)
      expect.unreachable()
    } catch (e) {
      expect(e).toBeInstanceOf(InputError)
      expect((e as InputError).code).toBe('FILE_CHANGED')
      expect((e as InputError).position).toBe(10)
      expect((e as Error).message).toContain(`it had ${size} bytes when opened, 10 now`)
    } finally {
      src.close()
    }
  })
})

describe('names', () => {
  it('a partition directory and a segment whose names are not UTF-8 are read under their own bytes, shown escaped', async () => {
    const root = path.join(dir, `case${n++}`)
    const rawDir = Buffer.concat([Buffer.from(root + '/t\xff'.slice(0, -1), 'utf8'), Buffer.from([0xff, 0x2d, 0x30])]) // "t\xff-0"
    fs.mkdirSync(rawDir, { recursive: true })
    fs.writeFileSync(Buffer.concat([rawDir, Buffer.from('/' + LOG)]), simpleSegment(3))
    fs.writeFileSync(
      Buffer.concat([rawDir, Buffer.from('/0000000000000000000'), Buffer.from([0xfe]), Buffer.from('.log')]),
      simpleSegment(1),
    )
    const r = await run([root])
    expectNoCrash(r)
    expect(r.stdout).toContain(`Dumping ${root}/t\\xff-0/${LOG}`)
    expect(r.stdout).toContain(`Dumping ${root}/t\\xff-0/0000000000000000000\\xfe.log`)
    expect(r.stderr).not.toMatch(/no such file/)
    expect(r.code).toBe(0)
  })

  it('escapeName keeps UTF-8, escapes invalid bytes and control characters', () => {
    expect(escapeName(Buffer.from('héllo.log'))).toBe('héllo.log')
    expect(escapeName(Buffer.from([0x61, 0xff, 0xc3, 0xa9, 0x0a, 0xe2, 0x82]))).toBe('a\\xffé\\x0a\\xe2\\x82')
  })

  it('an explicitly named non-Kafka file exits 2 with a clear message', async () => {
    for (const f of ['/etc/hostname', '/proc/self/status'].filter((x) => fs.existsSync(x))) {
      for (const argv of [[f], ['reconcile', f], ['txns', f], ['lso', f]]) {
        const r = await run(argv)
        expectNoCrash(r)
        expect(r.code).toBe(2)
        expect(r.stderr).toMatch(/not a Kafka file/)
      }
    }
  })
})

describe('output write errors', () => {
  const p = partition({ [LOG]: simpleSegment(3) })
  function fullContext(which: 'stdout' | 'stderr'): {
    ctx: CommandContext
    other: ReturnType<typeof testContext>
    close: () => void
  } {
    const fd = fs.openSync('/dev/full', 'w')
    const other = testContext()
    const w = new FdWriter(fd, 4096, which === 'stderr')
    const ctx: CommandContext = { ...other, [which]: w }
    return { ctx, other, close: () => fs.closeSync(fd) }
  }

  it.runIf(fs.existsSync('/dev/full'))(
    'stdout on /dev/full: every command exits 2 with one OUTPUT_WRITE_FAILED line naming <stdout>',
    async () => {
      for (const argv of [
        [p],
        ['--json', p],
        ['--deep-iteration', p],
        ['reconcile', p],
        ['txns', p],
        ['lso', p],
        ['txns', '--json', p],
      ]) {
        const { ctx, other, close } = fullContext('stdout')
        try {
          const code = await main(argv, ctx)
          expect(code).toBe(2)
          const fs_ = findings(other.stderr.text)
          expect(fs_.filter((f) => f.code === 'OUTPUT_WRITE_FAILED')).toMatchObject([
            { file: '<stdout>', message: expect.stringMatching(/^write failed: ENOSPC/) },
          ])
          expect(fs_.filter((f) => f.code === 'UNREADABLE')).toEqual([])
        } finally {
          close()
        }
      }
    },
  )

  it.runIf(fs.existsSync('/dev/full'))(
    'stderr on /dev/full: no exception escapes main, the exit code is still right',
    async () => {
      const bad = partition({ [LOG]: Buffer.concat([simpleSegment(3), Buffer.from([0, 0, 0, 1, 2])]) })
      for (const [argv, want] of [
        [[p], 0],
        [[bad], 1],
        [['--no-such-option'], 2],
        [['reconcile', bad], 1],
      ] as const) {
        const { ctx, close } = fullContext('stderr')
        try {
          expect(await main([...argv], ctx)).toBe(want)
        } finally {
          close()
        }
      }
    },
  )
})

describe('the exit rule: 2 only for a usage error or when nothing could be read (issue #25)', () => {
  it('a FIFO where the .txnindex should be: dump, reconcile, txns and lso answer and exit 1 (0 for dump, which skips it as kafka-dump-log does); the FIFO alone exits 2', async () => {
    if (!haveFifo) return expect.fail('mkfifo is missing: this test needs it')
    const p = partition({ [LOG]: simpleSegment(3) })
    const txi = path.join(p, '00000000000000000000.txnindex')
    spawnSync('mkfifo', [txi])
    for (const cmd of ['reconcile', 'txns', 'lso']) {
      const r = await run([cmd, p])
      expectNoCrash(r)
      expect(r.stderr, cmd).toMatch(/\.txnindex: position 0: .*\[NOT_REGULAR_FILE\]/)
      expect(r.code, cmd).toBe(1)
    }
    const d = await run([p])
    expect(d.stderr).toMatch(/Ignoring .*\.txnindex: a FIFO/)
    expect(d.code).toBe(0)
    expect((await run([txi])).code).toBe(2)
    expect((await run(['reconcile', path.join(p, 'missing')])).code).toBe(2)
  })
})

describe('names that are not UTF-8 (issue #25)', () => {
  it('given on the command line they cannot be opened (Node decodes argv): the error says so and what to do', async () => {
    const parentDir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-argv-'))
    const raw = Buffer.concat([Buffer.from(parentDir + '/t'), Buffer.from([0xff]), Buffer.from('-0')])
    fs.mkdirSync(raw, { recursive: true })
    try {
      fs.writeFileSync(Buffer.concat([raw, Buffer.from(`/${LOG}`)]), simpleSegment(2))
      const asArg = raw.toString('utf8') // what the shell's bytes become in process.argv
      const r = await run([asArg])
      expect(r.code).toBe(2)
      expect(r.stderr).toMatch(
        /no such file or directory \(the name has bytes that are not UTF-8: .*give its parent directory instead.*\[UNREADABLE\]/,
      )
      const parent = await run([path.dirname(asArg)])
      expect(parent.stdout).toMatch(/Dumping .*\/t\\xff-0\/00000000000000000000\.log/)
      expect(parent.code).toBe(0)
    } finally {
      fs.rmSync(parentDir, { recursive: true, force: true })
    }
  })
})
