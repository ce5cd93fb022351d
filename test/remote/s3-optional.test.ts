// @aws-sdk/client-s3 is an optional dependency: an installation without it reads directories (every layout) as
// before, and `--remote-storage s3://` says how to install it. The installation is the built
// package (bin/, dist/bundle/, package.json) in a temporary directory whose node_modules has every package of
// this checkout's but @aws-sdk/*.
import { spawnSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { FIXTURES_44, REPO_ROOT } from '../support/paths.js'

describe('tsdump installed without @aws-sdk/client-s3', () => {
  let root: string
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'tsdump-no-sdk-'))
    fs.cpSync(path.join(REPO_ROOT, 'bin'), path.join(root, 'bin'), { recursive: true })
    fs.cpSync(path.join(REPO_ROOT, 'dist/bundle'), path.join(root, 'dist/bundle'), {
      recursive: true,
      filter: (p) => !p.endsWith('.map') && !p.includes('cache'),
    })
    fs.copyFileSync(path.join(REPO_ROOT, 'package.json'), path.join(root, 'package.json'))
    fs.mkdirSync(path.join(root, 'node_modules'))
    for (const e of fs.readdirSync(path.join(REPO_ROOT, 'node_modules'))) {
      if (e === '@aws-sdk' || e === '.bin') continue
      fs.symlinkSync(path.join(REPO_ROOT, 'node_modules', e), path.join(root, 'node_modules', e))
    }
  })
  afterAll(() => {
    fs.rmSync(root, { recursive: true, force: true })
  })
  const run = (args: string[]): ReturnType<typeof spawnSync> =>
    spawnSync(process.execPath, [path.join(root, 'bin/tsdump.js'), ...args], { encoding: 'utf8', timeout: 60_000 })

  it("s3:// is the storage's finding naming the package to install (as any storage that cannot be opened); the local segments are read", () => {
    const r = run([
      'reconcile',
      path.join(FIXTURES_44, 'tiered-aiven-plain/logs/tiered-0'),
      '--remote-storage',
      's3://some-bucket/prefix/',
    ])
    expect(r.status, String(r.stderr)).toBe(1)
    expect(String(r.stdout)).toMatch(/^tiered-0 /m)
    expect(String(r.stderr)).toMatch(/npm install @aws-sdk\/client-s3/)
    expect(String(r.stderr)).not.toMatch(/internal error/)
  })

  it('a directory storage is read as with it', () => {
    const r = run([
      'reconcile',
      path.join(FIXTURES_44, 'tiered-aiven-zstd/logs/tiered-0'),
      '--remote-storage',
      path.join(FIXTURES_44, 'tiered-aiven-zstd/remote'),
      '--json',
    ])
    expect(r.status, String(r.stderr)).toBe(0)
    const p = (
      JSON.parse(String(r.stdout)) as { partitions: Array<{ readCommitted: number; readUncommitted: number }> }
    ).partitions[0]!
    expect([p.readCommitted, p.readUncommitted]).toEqual([7, 20])
  })
})
