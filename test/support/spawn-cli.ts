// The CLI in a child process, waited for without blocking this thread: a fault proxy or an S3 server of the test
// serves from this thread's event loop, and tsdump's S3 reads block their own thread until its I/O thread answers.
import { spawn } from 'node:child_process'
import path from 'node:path'
import { REPO_ROOT } from './paths.js'

export async function spawnCli(
  args: string[],
  env: Record<string, string> = {},
): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(process.execPath, [path.join(REPO_ROOT, 'bin/tsdump.js'), ...args], {
    env: { ...process.env, ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
  })
  let stdout = ''
  let stderr = ''
  child.stdout.on('data', (d: Buffer) => {
    stdout += d.toString('utf8')
  })
  child.stderr.on('data', (d: Buffer) => {
    stderr += d.toString('utf8')
  })
  const code = await new Promise<number>((resolve) => child.on('close', (c) => resolve(c ?? -1)))
  return { code, stdout, stderr }
}
