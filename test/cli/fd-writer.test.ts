// The process's stdout writer (cli/fd-writer.ts): bytes handed over as they are (writeBytes, how the parallel
// dump writes a worker's ring) come out after what the writer held, whole, through a full non-blocking pipe
// (EAGAIN, partial writes); a reader that went away (EPIPE) closes it quietly, a failed write (ENOSPC) is kept.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { FdWriter } from '../../src/cli/fd-writer.js'
import { rmrf, tmp } from '../hostile/support.js'
import { hasMkfifo, slowPipe } from '../support/slow-pipe.js'

const dir = tmp('tsdump-fd-writer-')
afterAll(() => rmrf(dir))

describe('FdWriter.writeBytes', () => {
  it.runIf(hasMkfifo)(
    'through a full non-blocking pipe: what it held, then the bytes, in order and whole',
    async () => {
      const pipe = slowPipe(dir, 'full')
      const w = new FdWriter(pipe.fd, 4096)
      const big = Buffer.alloc(3 * 1024 * 1024 + 17)
      for (let i = 0; i < big.length; i++) big[i] = (i * 7 + (i >> 12)) & 0xff
      const shared = Buffer.from(new SharedArrayBuffer(big.length + 10))
      big.copy(shared, 5)
      w.write('héllo ')
      w.writeBytes(shared.subarray(5, 5 + big.length))
      w.write(' end\n')
      w.flush()
      expect(w.closed).toBe(false)
      const got = await pipe.done()
      expect(got.equals(Buffer.concat([Buffer.from('héllo '), big, Buffer.from(' end\n')]))).toBe(true)
    },
  )

  it.runIf(hasMkfifo)('a reader that went away (EPIPE): closed, no failure, later writes dropped', () => {
    const fifo = path.join(dir, 'gone')
    expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
    const reader = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
    const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)
    fs.closeSync(reader)
    const w = new FdWriter(fd, 4096)
    w.writeBytes(Buffer.from('lost'))
    expect(w.closed).toBe(true)
    expect(w.failure).toBeUndefined()
    w.writeBytes(Buffer.from('after'))
    w.write('after')
    w.flush()
    fs.closeSync(fd)
  })

  it.runIf(fs.existsSync('/dev/full'))('a failed write (ENOSPC on /dev/full): closed, the error kept', () => {
    const fd = fs.openSync('/dev/full', 'w')
    try {
      const w = new FdWriter(fd, 4096)
      w.writeBytes(Buffer.alloc(100, 0x61))
      expect(w.closed).toBe(true)
      expect(w.failure?.code).toBe('ENOSPC')
    } finally {
      fs.closeSync(fd)
    }
  })
})
