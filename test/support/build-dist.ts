// vitest globalSetup: the tests that start worker threads (commands/workers/threads.ts workerUrl), spawn
// bin/tsdump.js or import the package by its name run dist/, the compiled src/. So that `npx vitest run`
// without a build never tests stale code, dist/ is rebuilt first when any src/ file is newer than its
// compiled file (or has none). `npm test` builds before vitest, so there this finds nothing to do.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** the first src/ file whose dist/ counterpart is missing or older, if any */
export function staleSource (root = ROOT): string | undefined {
  const src = path.join(root, 'src')
  for (const e of fs.readdirSync(src, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts') || e.name.endsWith('.d.ts')) continue
    const file = path.join(e.parentPath, e.name)
    const out = path.join(root, 'dist', path.relative(src, file)).replace(/\.ts$/, '.js')
    let built: number
    try { built = fs.statSync(out).mtimeMs } catch { return file }
    if (fs.statSync(file).mtimeMs > built) return file
  }
  return undefined
}

export default function setup (): void {
  const stale = staleSource()
  if (stale === undefined) return
  console.log(`dist/ is older than ${path.relative(ROOT, stale)}: building (tsc -p tsconfig.json) before the tests`)
  const tsc = path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc')
  const r = spawnSync(process.execPath, [tsc, '-p', path.join(ROOT, 'tsconfig.json')], { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`tsc failed, so dist/ would be stale for the tests:\n${r.stdout}${r.stderr}`)
}
