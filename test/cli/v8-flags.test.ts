// bin/tsdump.js sets V8 flags per command at run time. --optimize-for-size set that way hangs Node 20 at exit in
// about 2% of short runs (NodePlatform::DrainTasks waits for ever, nodejs/node#54918): 24 of 300 runs of a
// .timeindex check hung with it, 0 of 300 without. The fuzzer's 180 s hang limit caught it. Keep it out.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

describe('bin/tsdump.js V8 flags', () => {
  it('never sets --optimize-for-size at run time', () => {
    const bin = fs.readFileSync(path.join(REPO_ROOT, 'bin/tsdump.js'), 'utf8')
    const code = bin.split('\n').filter((l) => !l.trimStart().startsWith('//')).join('\n')
    expect(code).toMatch(/setFlagsFromString/)
    expect(code).not.toMatch(/optimize-for-size/)
  })
})
