// vitest globalSetup: the tests that start worker threads (commands/workers/threads.ts workerUrl) or import
// the package by its name run dist/, the compiled src/; those that spawn bin/tsdump.js run dist/bundle/
// (scripts/bundle.mjs). So that `npx vitest run` without a build never tests stale code, dist/ is rebuilt
// first when any src/ file is newer than its compiled file (or has none), and the bundle when any src/ file
// is newer than it. `npm test` builds before vitest, so there this finds nothing to do.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')

/** the first src/ file whose dist/ counterpart is missing or older, if any */
export function staleSource(root = ROOT): string | undefined {
  const src = path.join(root, 'src')
  for (const e of fs.readdirSync(src, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts') || e.name.endsWith('.d.ts')) continue
    const file = path.join(e.parentPath, e.name)
    const out = path.join(root, 'dist', path.relative(src, file)).replace(/\.ts$/, '.js')
    let built: number
    try {
      built = fs.statSync(out).mtimeMs
    } catch {
      return file
    }
    if (fs.statSync(file).mtimeMs > built) return file
  }
  return undefined
}

/** the first src/ file newer than the CLI's bundle (or any, when there is none), if any */
export function staleBundle(root = ROOT): string | undefined {
  let built: number
  try {
    built = fs.statSync(path.join(root, 'dist', 'bundle', 'tsdump.cjs')).mtimeMs
  } catch {
    built = -Infinity
  }
  const src = path.join(root, 'src')
  for (const e of fs.readdirSync(src, { withFileTypes: true, recursive: true })) {
    if (!e.isFile() || !e.name.endsWith('.ts')) continue
    const file = path.join(e.parentPath, e.name)
    if (fs.statSync(file).mtimeMs > built) return file
  }
  return undefined
}

function run(what: string, args: string[]): void {
  const r = spawnSync(process.execPath, args, { cwd: ROOT, encoding: 'utf8' })
  if (r.status !== 0) throw new Error(`${what} failed, so dist/ would be stale for the tests:\n${r.stdout}${r.stderr}`)
}

export default function setup(): void {
  const stale = staleSource()
  if (stale !== undefined) {
    console.log(`dist/ is older than ${path.relative(ROOT, stale)}: building (tsc -p tsconfig.json) before the tests`)
    run('tsc', [path.join(ROOT, 'node_modules', 'typescript', 'bin', 'tsc'), '-p', path.join(ROOT, 'tsconfig.json')])
  }
  const staleB = staleBundle()
  if (staleB !== undefined) {
    console.log(
      `dist/bundle/ is older than ${path.relative(ROOT, staleB)}: bundling (scripts/bundle.mjs) before the tests`,
    )
    run('the bundle', [path.join(ROOT, 'scripts', 'bundle.mjs')])
  }
}
