// The rule behind test/support/build-dist.ts (vitest's globalSetup): a src/ file newer than its dist/ file,
// or without one, makes dist/ stale and gets it rebuilt before the tests that run dist/.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { staleBundle, staleSource } from './support/build-dist.js'

const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-dist-'))
afterAll(() => fs.rmSync(tmp, { recursive: true, force: true }))

function put(rel: string, mtimeSec: number): string {
  const f = path.join(tmp, rel)
  fs.mkdirSync(path.dirname(f), { recursive: true })
  fs.writeFileSync(f, '')
  fs.utimesSync(f, mtimeSec, mtimeSec)
  return f
}

describe('dist/ freshness', () => {
  it('this checkout: dist/ and the bundle are current (the globalSetup rebuilt them if they were not)', () => {
    expect(staleSource()).toBeUndefined()
    expect(staleBundle()).toBeUndefined()
  })
  it('a src/ file newer than its compiled file, or without one, is found', () => {
    put('src/a/x.ts', 1000)
    put('dist/a/x.js', 2000)
    put('src/types.d.ts', 3000)
    expect(staleSource(tmp)).toBeUndefined()
    const newer = put('src/a/y.ts', 3000)
    put('dist/a/y.js', 2000)
    expect(staleSource(tmp)).toBe(newer)
    put('dist/a/y.js', 4000)
    const missing = put('src/b/z.ts', 1000)
    expect(staleSource(tmp)).toBe(missing)
  })
  it('a src/ file newer than the bundle, or no bundle, is found', () => {
    const dir = path.join(tmp, 'bundled')
    const at = (rel: string, mtimeSec: number): string => put(path.join('bundled', rel), mtimeSec)
    const first = at('src/a/x.ts', 1000)
    expect(staleBundle(dir)).toBe(first)
    at('dist/bundle/tsdump.cjs', 2000)
    expect(staleBundle(dir)).toBeUndefined()
    const newer = at('src/b/y.ts', 3000)
    expect(staleBundle(dir)).toBe(newer)
  })
})
