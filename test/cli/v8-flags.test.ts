// bin/tsdump.js sets V8 flags per command at run time. --optimize-for-size set that way hangs Node 20 at exit in
// about 2% of short runs (NodePlatform::DrainTasks waits for ever, nodejs/node#54918): 24 of 300 runs of a
// .timeindex check hung with it, 0 of 300 without. The fuzzer's 180 s hang limit caught it. Keep it out.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { REPO_ROOT } from '../support/paths.js'

describe('bin/tsdump.js V8 flags', () => {
  it('never sets --optimize-for-size at run time', () => {
    const bin = fs.readFileSync(path.join(REPO_ROOT, 'bin/tsdump.js'), 'utf8')
    const code = bin
      .split('\n')
      .filter((l) => !l.trimStart().startsWith('//'))
      .join('\n')
    expect(code).toMatch(/setFlagsFromString/)
    expect(code).not.toMatch(/optimize-for-size/)
  })

  // node:v8 is loaded exactly when the flags are set (bin/tsdump.js): seen from the child's own module list
  const setsFlags = (args: string[]): boolean => {
    // a script, so that the shim's process.argv.slice(2) are `args` as when it runs itself
    const probe = path.join(os.tmpdir(), `tsdump-v8-probe-${process.pid}.cjs`)
    fs.writeFileSync(
      probe,
      'process.on("exit", () => process.stderr.write("\\nV8LOADED " + process.moduleLoadList.includes("NativeModule v8") + "\\n"))\n' +
        `require(${JSON.stringify(path.join(REPO_ROOT, 'bin/tsdump.js'))})\n`,
    )
    const r = spawnSync(process.execPath, [probe, ...args], { encoding: 'utf8', input: '' })
    fs.rmSync(probe, { force: true })
    const m = /V8LOADED (true|false)/.exec(r.stderr)
    if (m === null) throw new Error(`no probe line: ${r.stderr}`)
    return m[1] === 'true'
  }
  it('a small input gets no flags (they change nothing there, and node:v8 costs a short run 3-4 ms); a large one, stdin or a remote store does', () => {
    const partition = path.join(REPO_ROOT, 'fixtures/broker/orders/logs/orders-11-0')
    expect(setsFlags([partition])).toBe(false)
    expect(setsFlags(['reconcile', partition])).toBe(false)
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-v8flags-'))
    try {
      const big = path.join(dir, '00000000000000000000.log')
      fs.writeFileSync(big, '')
      fs.truncateSync(big, 1024 * 1024) // sparse: 1 MiB of zeros, a framing error at once
      expect(setsFlags([big])).toBe(true)
      expect(setsFlags(['reconcile', dir])).toBe(true)
      expect(setsFlags(['-'])).toBe(true)
      expect(setsFlags([partition, '--remote-storage', 's3://bucket/prefix'])).toBe(true)
      // deeper than a log directory (log dir / partition / files): not looked into, counted as large
      expect(setsFlags([path.join(REPO_ROOT, 'fixtures')])).toBe(true)
    } finally {
      fs.rmSync(dir, { recursive: true, force: true })
    }
  })
})
