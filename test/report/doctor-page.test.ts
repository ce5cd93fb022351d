// The report is doctor's picture: in headless Chromium (the Debian package, driven by playwright-core, offline), the
// ranked list at the top of the page is what `tsdump doctor --json` prints for the same paths and --now, in the
// same order (findings and groups), and --now moves every age on the page by the same amount, as it moves doctor's.
// Truth for the ages: the clock difference itself, and describe-producers' open transaction (open-txn expected.json).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { transactionStateLog, transactions as writeTransactions } from '../../scripts/fuzz/builders.mjs'
import { FIXTURES, FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'

const CHROMIUM = process.env.TSDUMP_CHROMIUM ?? '/usr/bin/chromium'
const available = fs.existsSync(CHROMIUM)
if (!available)
  console.log(
    `report doctor-page tests skipped: ${CHROMIUM} is absent (Debian: apt-get install -y chromium; or set TSDUMP_CHROMIUM)`,
  )

const NOW = '2026-12-06T00:00:00Z'
const LATER = '2026-12-06T01:30:00Z'

interface Row {
  kind: string
  code: string
  severity: string
  rank: string
  count: string
  broker?: string
  partition?: string
  file?: string
  position?: string
  firstOffset?: string
  lastOffset?: string
  minutes?: string
}
interface JsonFinding {
  code: string
  severity: string
  rank: number
  location: {
    broker: string | null
    partition: string | null
    file: string | null
    position: number | null
    firstOffset: number | string | null
    lastOffset: number | string | null
  }
  figures: { minutes?: number }
}
interface DoctorJson {
  findings: JsonFinding[]
  groups: Array<{
    code: string
    severity: string
    rank: number
    broker: string | null
    count: number
    examples: JsonFinding[]
  }>
}

let browser: Browser | undefined
let tmp = ''

async function page(args: string[], name: string): Promise<Page> {
  const out = path.join(tmp, `${name}.html`)
  const r = await runCli(['report', '-o', out, ...args])
  expect(r.code, r.stderr).toBeLessThan(2)
  const context = await browser!.newContext({ offline: true })
  const p = await context.newPage()
  await p.goto(pathToFileURL(out).href, { waitUntil: 'load' })
  return p
}

const rows = (p: Page): Promise<Row[]> =>
  p.$$eval('#doctor ol.doctor > li', (els) => els.map((e) => ({ ...(e as HTMLElement).dataset }) as unknown as Row))

/** a row as the JSON gives it: every data-* hook the page has */
function fromJson(f: JsonFinding, kind: string, count: number, broker: string | null): Row {
  const l = f.location
  const s = (v: string | number | null): Record<string, string> => (v === null ? {} : { v: String(v) })
  const o: Row = { kind, code: f.code, severity: f.severity, rank: String(f.rank), count: String(count) }
  for (const [k, v] of [
    ['broker', broker],
    ['partition', l.partition],
    ['file', l.file],
    ['position', l.position],
    ['firstOffset', l.firstOffset],
    ['lastOffset', l.lastOffset],
    ['minutes', kind === 'finding' ? (f.figures.minutes ?? null) : null],
  ] as const)
    if (s(v).v !== undefined) (o as unknown as Record<string, string>)[k] = s(v).v!
  return o
}

/** builders' transactions that never match their coordinator's records: two codes with more findings than doctor lists */
function mismatched(): string {
  const logs = path.join(tmp, 'mismatched')
  for (const d of ['orders-0', '__transaction_state-0']) fs.mkdirSync(path.join(logs, d), { recursive: true })
  writeTransactions(path.join(logs, 'orders-0', '00000000000000000000.log'), 150 * 100, false)
  transactionStateLog(path.join(logs, '__transaction_state-0', '00000000000000000000.log'), 1000, 40)
  return logs
}

describe.skipIf(!available)("tsdump report: doctor's ranked findings first, in headless Chromium", () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-report-doctor-'))
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true })
  })

  const unclean = path.join(FIXTURES_44, 'replicas-unclean')
  const cases: Array<[string, () => string[]]> = [
    ['open-txn', () => [path.join(FIXTURES, 'open-txn', 'logs')]],
    ['transactions 4.4.0', () => [path.join(FIXTURES_44, 'transactions', 'logs')]],
    [
      'replicas-unclean, three brokers',
      () => ['before/broker-1', 'before/broker-2', 'broker-3'].map((d) => path.join(unclean, d)),
    ],
    ['many findings of two codes (grouped)', () => [mismatched()]],
  ]
  for (const [name, paths] of cases) {
    it(`${name}: the list at the top is doctor --json's, in its order`, async () => {
      const ps = paths()
      const d = JSON.parse((await runCli(['doctor', '--json', '--now', NOW, ...ps])).stdout) as DoctorJson
      const p = await page(['--now', NOW, ...ps], name.replace(/\W+/g, '-'))
      const got = await rows(p)
      expect(got.filter((r) => r.kind === 'finding')).toEqual(
        d.findings.map((f) => fromJson(f, 'finding', 1, f.location.broker)),
      )
      expect(got.filter((r) => r.kind === 'group')).toEqual(
        d.groups.map((g) => fromJson(g.examples[0]!, 'group', g.count, g.broker)),
      )
      // one order: rank never goes back
      expect(got.map((r) => Number(r.rank))).toEqual([...got.map((r) => Number(r.rank))].sort((a, b) => a - b))
      if (name.includes('grouped')) expect(d.groups.length).toBeGreaterThan(0)
      if (name.includes('replicas')) {
        expect(got[0]!.code).toBe('REPLICA_DIVERGED')
        expect(await p.$$eval('#replicas tr[data-divergence]', (els) => els.length)).toBeGreaterThan(0)
      }
      expect(await p.$('#cleanup')).not.toBeNull()
      expect(await p.$eval('#transactions', (e) => (e as HTMLElement).dataset.count)).toBeDefined()
      await p.context().close()
    })
  }

  it("--now moves every age on the page by the same amount, as it moves doctor's", async () => {
    const logs = path.join(FIXTURES, 'open-txn', 'logs')
    const ages = async (now: string): Promise<{ row: number; callout: number; doctor: number }> => {
      const p = await page(['--now', now, logs], `now-${now.replace(/\W+/g, '-')}`)
      const row = Number((await rows(p)).find((r) => r.code === 'TXN_HANGING')!.minutes)
      const text = await p.$eval('.blocked', (e) => e.textContent ?? '')
      const callout = Number(/age ([\d.]+) min at/.exec(text)![1])
      await p.context().close()
      const d = JSON.parse((await runCli(['doctor', '--json', '--now', now, logs])).stdout) as DoctorJson
      return { row, callout, doctor: d.findings.find((f) => f.code === 'TXN_HANGING')!.figures.minutes! }
    }
    const a = await ages(NOW)
    const b = await ages(LATER)
    expect(a.row).toBe(a.doctor)
    expect(b.row).toBe(b.doctor)
    // doctor's minutes are find-hanging's whole minutes; the callout's age has a decimal
    expect(a.callout - a.row).toBeGreaterThanOrEqual(0)
    expect(a.callout - a.row).toBeLessThan(1)
    expect(b.row - a.row).toBe(90)
    expect(b.callout - a.callout).toBeCloseTo(90, 1)
  })
})
