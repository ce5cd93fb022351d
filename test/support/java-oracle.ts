// Small Java programs as test oracles: compiled with javac into a temp dir at test set-up, fed on stdin.
// Tests that use them skip, saying why, when no JDK is installed.
import { execFileSync, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'

/** why the oracles cannot run (no javac or java), or null */
export function jdkMissing(): string | null {
  for (const tool of ['javac', 'java']) {
    const r = spawnSync(tool, ['-version'], { encoding: 'utf8' })
    if (r.error || r.status !== 0) return `${tool} not found (${r.error?.message ?? `exit ${r.status}`})`
  }
  return null
}

export interface Oracle {
  dir: string
  classPath: string[]
}

/** compile `sources` (with `classPath` jars) into a fresh temp dir */
export function compileOracle(sources: string[], classPath: string[] = []): Oracle {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-oracle-'))
  const cp = classPath.length ? ['-cp', classPath.join(path.delimiter)] : []
  execFileSync('javac', [...cp, '-d', dir, ...sources])
  return { dir, classPath }
}

/** run main class `cls` with `input` on stdin; stdout */
export function runOracle(o: Oracle, cls: string, input: string): string {
  return execFileSync(
    'java',
    ['-Xshare:auto', '-XX:TieredStopAtLevel=1', '-cp', [o.dir, ...o.classPath].join(path.delimiter), cls],
    { input, encoding: 'utf8', maxBuffer: 1 << 30 },
  )
}

export function removeOracle(o: Oracle | undefined): void {
  if (o) fs.rmSync(o.dir, { recursive: true, force: true })
}
