// The library has one shape: fn(paths, options) -> a result with `unusable` and its findings; what it cannot
// answer at all is a TsdumpError with a code; a filter is resolved as the command line resolves its flags.
// The counts a resolved filter gives are the command line's (whose numbers the other tests check against
// the brokers' consumers), and a transactional id with no record is an error in both, never "every record".
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { FIXTURES, FIXTURES_44 } from './support/paths.js'
import { runCli } from './support/run-cli.js'
import {
  cleanup,
  doctor,
  lso,
  openLogDir,
  openPartition,
  reconcile,
  remote,
  replicas,
  report,
  transactions,
  TsdumpError,
  txns,
} from '../src/index.js'

const ORDERS = path.join(FIXTURES, 'orders', 'logs')
const OPEN_TXN = path.join(FIXTURES, 'open-txn', 'logs')
const NOW = Date.parse('2030-01-01T00:00:00Z')
const MISSING = path.join(FIXTURES, 'no-such-log-dir')

/** what fn threw: its class and code */
function thrown(fn: () => unknown): { isTsdumpError: boolean; code: unknown; message: string } {
  try {
    fn()
  } catch (e) {
    return {
      isTsdumpError: e instanceof TsdumpError,
      code: (e as { code?: unknown }).code,
      message: (e as Error).message,
    }
  }
  throw new Error('nothing was thrown')
}

describe('filters are resolved in the library as on the command line', () => {
  it("a transactionalId with no __transaction_state record is NOT_FOUND in reconcile, txns and transactions, as the CLI's exit 2", async () => {
    const filter = { transactionalId: 'no-such-id' }
    for (const fn of [
      () => reconcile([ORDERS], { filter }),
      () => txns([ORDERS], { filter }),
      () => transactions([ORDERS], { filter }),
    ]) {
      const t = thrown(fn)
      expect(t.isTsdumpError).toBe(true)
      expect(t.code).toBe('NOT_FOUND')
      expect(t.message).toContain('no-such-id')
    }
    const cli = await runCli(['reconcile', '--transactional-id', 'no-such-id', ORDERS])
    expect(cli.code).toBe(2)
    // one rule: the command line says what the library's error says
    expect(cli.stderr).toContain(thrown(() => reconcile([ORDERS], { filter })).message)
  })

  it('a known transactionalId counts what --transactional-id counts, not every record', async () => {
    const lib = reconcile([ORDERS], { filter: { transactionalId: 'tx-rw-1' } })
    expect(lib.filter?.producerIds).toEqual([1n])
    const cli = JSON.parse((await runCli(['reconcile', '--json', '--transactional-id', 'tx-rw-1', ORDERS])).stdout) as {
      partitions: Array<{ topic: string; partition: number; readUncommitted: number }>
    }
    const unfiltered = reconcile([ORDERS])
    const counts = (r: typeof lib): Record<string, number> =>
      Object.fromEntries(r.partitions.map((p) => [p.label, p.report.readUncommitted]))
    expect(Object.values(counts(lib)).reduce((a, b) => a + b, 0)).toBeLessThan(
      Object.values(counts(unfiltered)).reduce((a, b) => a + b, 0),
    )
    const cliCounts = Object.fromEntries(cli.partitions.map((p) => [`${p.topic}-${p.partition}`, p.readUncommitted]))
    expect(Object.keys(cliCounts).length).toBeGreaterThan(0)
    for (const [label, n] of Object.entries(cliCounts)) expect(counts(lib)[label], label).toBe(n)
  })

  it('bounds that cross are USAGE', () => {
    expect(thrown(() => reconcile([ORDERS], { filter: { startOffset: 9n, endOffset: 3n } })).code).toBe('USAGE')
  })
})

describe('TsdumpError carries a code', () => {
  it('UNREADABLE from openPartition and openLogDir', () => {
    for (const fn of [
      () => openPartition(MISSING),
      () => openLogDir(MISSING),
      () => openPartition(path.join(FIXTURES, '..', '..', 'docs')),
    ]) {
      const t = thrown(fn)
      expect(t).toMatchObject({ isTsdumpError: true, code: 'UNREADABLE' })
    }
  })

  it('USAGE from cleanup for a config Kafka refuses', () => {
    expect(thrown(() => cleanup([ORDERS], { configs: new Map([['cleanup.policy', 'bogus']]) }))).toMatchObject({
      isTsdumpError: true,
      code: 'USAGE',
    })
  })
})

describe('every analysis is fn(paths, options) with unusable and findings', () => {
  const remoteOpts = { storage: path.join(FIXTURES_44, 'tiered', 'remote') }
  const calls: Array<[string, (paths: string[]) => { unusable: Array<{ code: string }> }]> = [
    ['reconcile', (p) => reconcile(p, {})],
    ['txns', (p) => txns(p, {})],
    ['lso', (p) => lso(p, { now: NOW })],
    ['transactions', (p) => transactions(p, { now: NOW })],
    ['cleanup', (p) => cleanup(p, { now: NOW })],
    ['replicas', (p) => replicas([...p, ...p], {})],
    ['remote', (p) => remote(p, remoteOpts)],
    ['report', (p) => report(p, { now: NOW })],
    ['doctor', (p) => doctor(p, { now: NOW })],
  ]

  it.each(calls)('%s: a path that cannot be used is in unusable (UNREADABLE), not thrown', (_name, fn) => {
    const r = fn([MISSING])
    expect(r.unusable.map((f) => f.code)).toContain('UNREADABLE')
  })

  it.each(calls)('%s: readable paths give no unusable, and findings where the command has them', (name, fn) => {
    const paths =
      name === 'remote'
        ? [path.join(FIXTURES_44, 'tiered', 'logs')]
        : name === 'replicas'
          ? [path.join(FIXTURES_44, 'replicas-unclean', 'broker-1')]
          : [OPEN_TXN]
    const r = fn(paths) as {
      unusable: unknown[]
      findings?: unknown[]
      partitions?: Array<{ findings?: unknown[]; report?: { findings: unknown[] } }>
      transactions?: unknown[]
    }
    expect(r.unusable).toEqual([])
    // the result's own findings, or each partition's
    const listed =
      r.findings !== undefined ||
      (r.partitions ?? []).every((p) => Array.isArray(p.findings) || Array.isArray(p.report?.findings))
    expect(listed).toBe(true)
    if (name !== 'doctor') expect((r.partitions ?? r.transactions ?? []).length).toBeGreaterThan(0)
  })

  it('the hanging transaction of open-txn is one finding in lso, cleanup and report alike', () => {
    const codes = (fs: Array<{ code: string }>): string[] => fs.map((f) => f.code).filter((c) => c === 'TXN_HANGING')
    expect(codes(lso([OPEN_TXN], { now: NOW }).partitions.flatMap((p) => p.findings))).toEqual(['TXN_HANGING'])
    expect(codes(cleanup([OPEN_TXN], { now: NOW }).partitions.flatMap((p) => p.findings))).toEqual(['TXN_HANGING'])
    expect(codes(report([OPEN_TXN], { now: NOW }).partitions.flatMap((p) => p.findings))).toEqual(['TXN_HANGING'])
  })
})
