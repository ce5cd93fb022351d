// Every finding of every command can be located (docs/findings.md, the finding format): in --json a file and a
// byte position, or a partition and the offsets it is about; on stderr `<file>: position <p>:` or
// `<topic-partition>: offsets <a>..<b>:`. Run over every fixture's log directory and over copies damaged where
// kafka-dump-log's stored text puts a batch (a torn coordinator log, a damaged remote-log metadata partition).
// (cleanup's findings are located by another change and are not asserted here.)
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'

interface Loose {
  code?: unknown
  severity?: unknown
  message?: unknown
  file?: unknown
  position?: unknown
  partition?: unknown
  firstOffset?: unknown
}

/** every finding-shaped object in a JSON value that is not located */
function unlocated(v: unknown, out: Loose[] = []): Loose[] {
  if (Array.isArray(v)) {
    for (const x of v) unlocated(x, out)
    return out
  }
  if (v === null || typeof v !== 'object') return out
  const o = v as Loose
  if (typeof o.code === 'string' && typeof o.severity === 'string' && typeof o.message === 'string') {
    const located =
      (o.file !== undefined && o.position !== undefined) || (o.partition !== undefined && o.firstOffset !== undefined)
    if (!located) out.push(o)
  }
  for (const x of Object.values(o)) unlocated(x, out)
  return out
}
const parse = (stdout: string): unknown[] => {
  try {
    return [JSON.parse(stdout)]
  } catch {
    return stdout
      .split('\n')
      .filter((l) => l.trim() !== '')
      .map((l) => JSON.parse(l) as unknown)
  }
}
/** stderr finding lines without `position N:` or `offsets A..B:` */
const unlocatedLines = (stderr: string): string[] =>
  stderr
    .split('\n')
    .filter((l) => /^tsdump: (info|warning|error): /.test(l) && !/: (position \d+|offsets -?\d+\.\.-?\d+): /.test(l))

const logDirs = [FIXTURES, FIXTURES_44].flatMap((root) =>
  fs
    .readdirSync(root)
    .map((s) => path.join(root, s, 'logs'))
    .filter((d) => fs.existsSync(d)),
)

let tmp = ''
afterAll(() => {
  if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true })
})

describe('every finding is located, in --json and on stderr', () => {
  it.each(['reconcile', 'txns', 'lso', 'transactions'])('%s over every fixture', async (cmd) => {
    for (const d of logDirs) {
      const j = await runCli([cmd, '--json', d])
      expect(j.stderr).not.toMatch(/internal error/)
      expect(
        parse(j.stdout).flatMap((x) => unlocated(x)),
        `${cmd} ${d}`,
      ).toEqual([])
      const t = await runCli([cmd, d])
      expect(unlocatedLines(t.stderr), `${cmd} ${d}`).toEqual([])
    }
  })

  it('remote and replicas over their fixtures', async () => {
    const tiered = path.join(FIXTURES_44, 'tiered')
    for (const args of [
      ['remote', '--remote-storage', path.join(tiered, 'remote'), path.join(tiered, 'logs')],
      ...['replicas-clean', 'replicas-unclean'].map((f) => [
        'replicas',
        ...fs
          .readdirSync(path.join(FIXTURES_44, f))
          .filter((b) => b.startsWith('broker-'))
          .map((b) => path.join(FIXTURES_44, f, b)),
      ]),
    ]) {
      const j = await runCli([args[0]!, '--json', ...args.slice(1)])
      expect(
        parse(j.stdout).flatMap((x) => unlocated(x)),
        args.join(' '),
      ).toEqual([])
      const t = await runCli(args)
      expect(unlocatedLines(t.stderr), args.join(' ')).toEqual([])
    }
  })

  it('on damaged copies of the internal topics (a torn __transaction_state segment, a damaged __remote_log_metadata batch)', async () => {
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-located-'))
    fs.cpSync(path.join(FIXTURES_44, 'transactions'), path.join(tmp, 'transactions'), { recursive: true })
    fs.cpSync(path.join(FIXTURES_44, 'tiered'), path.join(tmp, 'tiered'), { recursive: true })
    // the last batch of each, by kafka-dump-log's text: torn in the middle
    const last = (fixture: string, dir: string): number =>
      Number(
        [
          ...fs
            .readFileSync(path.join(FIXTURES_44, fixture, 'dump', dir, '00000000000000000000.log.shallow.txt'), 'utf8')
            .matchAll(/position: (\d+) /g),
        ].at(-1)![1],
      )
    fs.truncateSync(
      path.join(tmp, 'transactions', 'logs', '__transaction_state-0', '00000000000000000000.log'),
      last('transactions', '__transaction_state-0') + 20,
    )
    const rlm = path.join(tmp, 'tiered', 'logs', '__remote_log_metadata-1', '00000000000000000000.log')
    fs.truncateSync(rlm, last('tiered', '__remote_log_metadata-1') + 20)
    const runs = [
      ['transactions', path.join(tmp, 'transactions', 'logs')],
      ['txns', path.join(tmp, 'transactions', 'logs')],
      ['lso', path.join(tmp, 'transactions', 'logs')],
      ['remote', '--remote-storage', path.join(tmp, 'tiered', 'remote'), path.join(tmp, 'tiered', 'logs')],
      [
        'reconcile',
        '--remote-storage',
        path.join(tmp, 'tiered', 'remote'),
        path.join(tmp, 'tiered', 'logs', 'tiered-0'),
      ],
    ]
    for (const args of runs) {
      const j = await runCli([args[0]!, '--json', ...args.slice(1)])
      expect(j.stderr).not.toMatch(/internal error/)
      expect(
        parse(j.stdout).flatMap((x) => unlocated(x)),
        args.join(' '),
      ).toEqual([])
      const t = await runCli(args)
      expect(unlocatedLines(t.stderr), args.join(' ')).toEqual([])
      expect(t.code, args.join(' ')).toBe(1)
    }
  })
})
