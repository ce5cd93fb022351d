// The read-only guarantee: every command and dump mode over copies of real partition directories,
// chmod'ed read-only, creates nothing and changes nothing. Root ignores the permission bits, so the
// whole tree (names, types, sizes, modes, mtimes, SHA-256 of contents) is also compared before and after.
import { createHash } from 'node:crypto'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { BROKER_FIXTURES, CORPUS, expectNoCrash, isRoot, rmrf, tmp } from './support.js'

const dir = tmp()
afterAll(() => {
  chmodTree(dir, 0o755, 0o644)
  rmrf(dir)
})

function chmodTree(root: string, dirMode: number, fileMode: number): void {
  for (const e of fs.readdirSync(root, { withFileTypes: true })) {
    const p = path.join(root, e.name)
    if (e.isDirectory()) chmodTree(p, dirMode, fileMode)
    else if (e.isFile()) fs.chmodSync(p, fileMode)
  }
  fs.chmodSync(root, dirMode)
}

/** every entry under root: type, size, mode, mtime and content hash (atime is allowed to change) */
function listing(root: string): string[] {
  const out: string[] = []
  const walk = (d: string): void => {
    for (const e of fs.readdirSync(d, { withFileTypes: true }).sort((a, b) => a.name.localeCompare(b.name))) {
      const p = path.join(d, e.name)
      const st = fs.lstatSync(p)
      const hash = e.isFile() ? createHash('sha256').update(fs.readFileSync(p)).digest('hex') : '-'
      out.push(
        `${path.relative(root, p)} ${e.isDirectory() ? 'd' : e.isFile() ? 'f' : 'o'} ${st.size} ${st.mode.toString(8)} ${st.mtimeMs} ${hash}`,
      )
      if (e.isDirectory()) walk(p)
    }
  }
  walk(root)
  return out
}

/** A broker-like log dir with copies of real partitions (broker fixtures and the corpus). */
function buildLogDir(): string | undefined {
  const logDir = path.join(dir, 'kafka-logs')
  fs.mkdirSync(logDir)
  let parts = 0
  if (fs.existsSync(BROKER_FIXTURES)) {
    for (const scenario of fs.readdirSync(BROKER_FIXTURES).sort()) {
      const logs = path.join(BROKER_FIXTURES, scenario, 'logs')
      if (!fs.existsSync(logs)) continue
      for (const e of fs.readdirSync(logs, { withFileTypes: true })) {
        const target = path.join(logDir, e.name)
        if (fs.existsSync(target)) continue
        fs.cpSync(path.join(logs, e.name), target, { recursive: true })
        if (e.isDirectory()) parts++
      }
    }
  }
  if (fs.existsSync(CORPUS)) {
    for (const p of ['plain-multi-record/test_topic_a-0', 'kafka-0.11/test0-0', 'idempotent-rolled/timeindex_test-0']) {
      if (fs.existsSync(path.join(CORPUS, p))) {
        fs.cpSync(path.join(CORPUS, p), path.join(logDir, path.basename(p)), { recursive: true })
        parts++
      }
    }
  }
  return parts > 0 ? logDir : undefined
}

const logDir = buildLogDir()
if (logDir === undefined)
  console.log('skipping read-only guarantee: no real partitions (fixtures/broker, ../shared/corpus) found')

const DUMP_MODES = [
  [],
  ['--deep-iteration'],
  ['--print-data-log'],
  ['--json', '--deep-iteration'],
  ['--compat', '--deep-iteration', '--print-data-log'],
  ['--control-only'],
  ['--no-crc'],
  ['--verify-index-only'],
  ['--index-sanity-check'],
  ['--window', '4096'],
  ['--max-bytes', '1000'],
  ['--skip-record-metadata', '--deep-iteration'],
  ['--print-data-log', '--value-decoder', 'hex'],
  ['--offsets-decoder'],
  ['--transaction-log-decoder'],
  ['--cluster-metadata-decoder'],
]
const COMMANDS = [['reconcile'], ['reconcile', '--json'], ['txns'], ['txns', '--json'], ['lso'], ['lso', '--json']]

describe.skipIf(logDir === undefined)('read-only guarantee', () => {
  it('every command and dump mode over a read-only log dir: nothing created, nothing changed', async () => {
    const root = logDir!
    chmodTree(root, 0o555, 0o444)
    const before = listing(root)
    const partitions = fs
      .readdirSync(root, { withFileTypes: true })
      .filter((e) => e.isDirectory())
      .map((e) => path.join(root, e.name))
    const targets = [root, ...partitions.slice(0, 4)]
    let runs = 0
    for (const argv of [...DUMP_MODES, ...COMMANDS]) {
      for (const t of argv.length > 0 && COMMANDS.includes(argv) ? targets : [root]) {
        // cwd inside the read-only tree: a stray relative write would land there and be seen
        const r = await runCli([...argv, t], { cwd: root })
        runs++
        expectNoCrash(r)
      }
    }
    // single files of every kind, named directly (the index dump opens its .log companion)
    for (const p of partitions.slice(0, 6)) {
      for (const f of fs.readdirSync(p)) {
        expectNoCrash(await runCli(['--deep-iteration', path.join(p, f)], { cwd: root }))
        runs++
      }
    }
    const after = listing(root)
    expect(after).toEqual(before)
    console.log(
      `read-only: ${runs} runs over ${partitions.length} partitions${isRoot ? ' (as root: compared by content hash, sizes, modes and mtimes)' : ''}`,
    )
  })
})
