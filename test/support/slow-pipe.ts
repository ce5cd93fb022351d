// A non-blocking FIFO drained late by `cat`, for tests of writes that meet a full pipe (EAGAIN, partial writes).
import { spawn, spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { expect } from 'vitest'

export const hasMkfifo = spawnSync('mkfifo', ['--version']).status === 0

/** A non-blocking FIFO: our write end, a `cat` draining it into a file, and the bytes it got once closed. */
export function slowPipe(dir: string, name: string): { fd: number; done: () => Promise<Buffer> } {
  const fifo = path.join(dir, name)
  const out = path.join(dir, `${name}.out`)
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0)
  // a reader end of our own, so the non-blocking open for writing finds one before cat starts
  const keep = fs.openSync(fifo, fs.constants.O_RDONLY | fs.constants.O_NONBLOCK)
  const fd = fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK)
  // cat starts late: the pipe (64 KiB) is full long before, so the writer meets EAGAIN and partial writes.
  // The shell opens its read end first and says so (`ready`): a writer that finished within the pipe's 64 KiB
  // and closed before any reader of cat's had opened left cat's open waiting for a writer for ever (a CI hang)
  const ready = path.join(dir, `${name}.ready`)
  const cat = spawn('sh', ['-c', `exec 3< "${fifo}"; : > "${ready}"; sleep 0.3; exec cat <&3 > "${out}"`], {
    stdio: 'ignore',
  })
  const exited = new Promise<void>((resolve) => cat.on('exit', () => resolve()))
  return {
    fd,
    done: async () => {
      while (!fs.existsSync(ready)) await new Promise((resolve) => setTimeout(resolve, 10))
      fs.closeSync(fd)
      fs.closeSync(keep)
      await exited
      return fs.readFileSync(out)
    },
  }
}
