// `tsdump kafka-dump-log <kafka-dump-log.sh's options>` answers the stored command lines of every release's
// kafka-dump-log beside the fixtures (fixtures/<tree>/<scenario>/dump/ and dump-<release>/, found as
// test/fixtures/compat-releases.test.ts finds them) with the tool's text, byte for byte: the command line as
// stored (kafka-dump-log.sh replaced by `tsdump kafka-dump-log`), plus --kafka-version for a release other than
// the default. The dumps compat-known-differences.json lists as differing today are left to that test. The exit
// status is tsdump's (1 where the data has problems, which kafka-dump-log.sh exits 0 on), never a usage error.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { DEFAULT_KAFKA_RELEASE } from '../../src/format/kafka-versions.js'
import { REPO_ROOT } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

interface DumpEntry {
  file: string
  mode: string
  command: string
  cwd: string
  stdout: string
  exitCode: number
}
interface Stored {
  release: string
  key: string
  dir: string
  entry: DumpEntry
}

const minor = (release: string): string => release.split('.').slice(0, 2).join('.')
const known = new Set(
  (
    JSON.parse(fs.readFileSync(path.join(REPO_ROOT, 'test/fixtures/compat-known-differences.json'), 'utf8')) as {
      entries: Array<{ release: string; mode: string; file: string }>
    }
  ).entries.map((k) => `${k.release} ${k.mode} ${k.file}`),
)

function stored(): Stored[] {
  const out: Stored[] = []
  for (const tree of ['broker', 'broker-4.4']) {
    const root = path.join(REPO_ROOT, 'fixtures', tree)
    for (const sc of fs.existsSync(root) ? fs.readdirSync(root).sort() : []) {
      const dir = path.join(root, sc)
      const manifest = path.join(dir, 'manifest.json')
      if (!fs.existsSync(manifest)) continue
      const own = JSON.parse(fs.readFileSync(manifest, 'utf8')) as { kafkaVersion: string; dumps: DumpEntry[] }
      const sets: Array<[string, DumpEntry[]]> = [[own.kafkaVersion, own.dumps]]
      for (const d of fs.readdirSync(dir).sort()) {
        const m = /^dump-(\d+\.\d+\.\d+)$/.exec(d)
        const other = path.join(dir, d, 'manifest.json')
        if (m !== null && fs.existsSync(other))
          sets.push([m[1]!, (JSON.parse(fs.readFileSync(other, 'utf8')) as { dumps: DumpEntry[] }).dumps])
      }
      for (const [release, dumps] of sets) {
        for (const e of dumps)
          out.push({
            release: minor(release),
            key: `${tree}/${sc}/${e.cwd === 'logs' ? '' : `${e.cwd}/`}${e.file}`,
            dir,
            entry: e,
          })
      }
    }
  }
  return out
}

const all = stored()
const compared = all.filter((s) => s.entry.exitCode === 0 && !known.has(`${s.release} ${s.entry.mode} ${s.key}`))

function argsOf(s: Stored): string[] {
  expect(s.entry.command).toMatch(/^kafka-dump-log\.sh /)
  const args = s.entry.command.replace(/^kafka-dump-log\.sh /, '').split(' ')
  return s.release === DEFAULT_KAFKA_RELEASE ? args : [...args, '--kafka-version', s.release]
}

describe('tsdump kafka-dump-log <its options>', () => {
  it('gives every stored kafka-dump-log text, byte for byte', async () => {
    expect(compared.length).toBeGreaterThan(1000)
    expect(new Set(compared.map((s) => s.release)).size).toBe(6)
    const modes = new Set(compared.map((s) => s.entry.mode))
    for (const m of ['shallow', 'deep', 'data', 'offsets']) expect(modes).toContain(m)
    const wrong: string[] = []
    for (const s of compared) {
      const r = await runCli(['kafka-dump-log', ...argsOf(s)], { cwd: path.join(s.dir, s.entry.cwd) })
      const want = fs.readFileSync(path.join(s.dir, s.entry.stdout), 'utf8')
      if (r.stdout !== want || r.code === 2)
        wrong.push(
          `${s.release} ${s.entry.command} (cwd ${path.relative(REPO_ROOT, path.join(s.dir, s.entry.cwd))}): exit ${r.code}`,
        )
    }
    console.log(
      `[kafka-dump-log] ${compared.length - wrong.length}/${compared.length} stored command lines identical (${all.length - compared.length} left to compat-releases: a refusal by that release or a known difference)`,
    )
    expect(wrong).toEqual([])
  }, 300_000)

  it("as a process, from bin/tsdump.js, with jopt-simple's prefixes of its options", () => {
    const s = compared.find(
      (c) => c.release === DEFAULT_KAFKA_RELEASE && c.entry.mode === 'deep' && c.entry.file.endsWith('.log'),
    )!
    const want = fs.readFileSync(path.join(s.dir, s.entry.stdout), 'utf8')
    const cwd = path.join(s.dir, s.entry.cwd)
    const full = spawnSync(process.execPath, [path.join(REPO_ROOT, 'bin/tsdump.js'), 'kafka-dump-log', ...argsOf(s)], {
      cwd,
      encoding: 'utf8',
    })
    expect(full.stdout).toBe(want)
    const short = argsOf(s).map((a) => (a === '--deep-iteration' ? '--deep' : a === '--files' ? '--fi' : a))
    const abbreviated = spawnSync(
      process.execPath,
      [path.join(REPO_ROOT, 'bin/tsdump.js'), 'kafka-dump-log', ...short],
      { cwd, encoding: 'utf8' },
    )
    expect(abbreviated.stdout).toBe(want)
    expect(abbreviated.status).toBe(0)
  })

  it('refuses what kafka-dump-log.sh does not take, and needs --files', async () => {
    const cwd = path.join(REPO_ROOT, 'fixtures/broker/orders/logs')
    const noFiles = await runCli(['kafka-dump-log', '--deep-iteration'], { cwd })
    expect(noFiles.code).toBe(2)
    expect(noFiles.stderr).toContain('--files')
    const json = await runCli(['kafka-dump-log', '--json', '--files', 'orders-11-0/00000000000000000000.log'], { cwd })
    expect(json.code).toBe(2)
    expect(json.stderr).toContain("unknown option '--json'")
  })
})
