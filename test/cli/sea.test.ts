// `npm run build:sea`'s single executable (scripts/sea/build.mjs) runs where there is no Node: copied alone into
// a temp dir (no node_modules, no package.json, no dist/ beside it), run with a PATH that has no node on it and
// an empty environment, its output and exit code must equal `node bin/tsdump.js`'s on the same arguments,
// codecs included (pako and fzstd are inside it). Building takes 10-40 s (a copy of the node binary).
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'

const BIN = path.join(REPO_ROOT, 'bin', 'tsdump.js')
const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-sea-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

const orders = path.join(FIXTURES, 'orders', 'logs')
const codecs = path.join(FIXTURES, 'codecs', 'logs')
const CASES: string[][] = [
  [path.join(orders, 'orders-11-0')],
  [
    '--deep-iteration',
    '--print-data-log',
    ...['gzip', 'lz4', 'snappy', 'zstd'].map((c) => path.join(codecs, `codec-${c}-0`)),
  ],
  ['lso', '--now', '2026-12-01T00:00:00Z', orders],
  ['reconcile', orders],
  ['txns', '--json', orders],
  ['--version'],
  [path.join(tmp, 'nope')],
]

let exe: string | undefined
let why = ''
beforeAll(async () => {
  if (!fs.existsSync(path.join(REPO_ROOT, 'node_modules', 'postject'))) {
    why = 'postject is not installed'
    return
  }
  const { buildSea, SEA_EXE } = (await import('../../scripts/sea/build.mjs')) as {
    buildSea: () => Promise<void>
    SEA_EXE: string
  }
  await buildSea()
  exe = path.join(tmp, 'app', path.basename(SEA_EXE))
  fs.mkdirSync(path.dirname(exe))
  fs.copyFileSync(SEA_EXE, exe)
  fs.chmodSync(exe, 0o755)
}, 240_000)

describe('the single executable (npm run build:sea)', () => {
  it('runs with no node on PATH and no node_modules, with the output of node bin/tsdump.js', (ctx) => {
    if (exe === undefined) {
      console.log(`skipping: ${why}`)
      ctx.skip()
      return
    }
    const empty = path.join(tmp, 'empty-path')
    fs.mkdirSync(empty, { recursive: true })
    const env = { PATH: empty, HOME: tmp }
    expect(spawnSync('node', ['-e', '0'], { env, cwd: tmp }).error, 'node must not be on the PATH').toBeDefined()
    for (const args of CASES) {
      const want = spawnSync(process.execPath, [BIN, ...args], {
        cwd: tmp,
        encoding: 'utf8',
        env: { ...env, PATH: process.env.PATH },
      })
      const got = spawnSync(exe, args, { cwd: path.dirname(exe), encoding: 'utf8', env })
      expect(got.error, args.join(' ')).toBeUndefined()
      expect(got.stdout, args.join(' ')).toBe(want.stdout)
      expect(got.stderr, args.join(' ')).toBe(want.stderr)
      expect(got.status, args.join(' ')).toBe(want.status)
      expect(want.stdout.length + want.stderr.length, args.join(' ')).toBeGreaterThan(0)
    }
    expect(fs.readdirSync(path.dirname(exe)), 'it writes nothing beside itself').toEqual([path.basename(exe)])
  }, 120_000)
})
