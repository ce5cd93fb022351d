// The report in a real browser: headless Chromium from the Debian package (never a downloaded build),
// driven by playwright-core, loading the file from disk with the network off. The DOM's machine hooks
// are checked against `reconcile --json` on every broker fixture, and orders-11 / open-txn against what
// the broker and real consumers said (fixtures/broker/*/expected.json).
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { pathToFileURL } from 'node:url'
import type { Browser, Page } from 'playwright-core'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { runReconcile } from '../../src/commands/reconcile.js'
import { runReport } from '../../src/commands/report.js'
import { renderReport } from '../../src/format/report/render.js'
import { model, partition } from './models.js'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'
import { runCommand } from '../support/txn-segment-builder.js'

const CHROMIUM = process.env.TSDUMP_CHROMIUM ?? '/usr/bin/chromium'
const ARTIFACTS = path.join(REPO_ROOT, '.cache/ci-reports')
const available = fs.existsSync(CHROMIUM)
if (!available)
  console.log(
    `report browser tests skipped: ${CHROMIUM} is absent (Debian: apt-get install -y chromium; or set TSDUMP_CHROMIUM)`,
  )

interface LaneHooks {
  partition: string
  hw: string
  lso: string
  readCommitted: string
  readUncommitted: string
  committed: number
  aborted: number
  open: number
}
interface Loaded {
  page: Page
  requests: string[]
  errors: string[]
}
interface ReconciledJson {
  partitions: Array<{
    topic: string | null
    partition: number | null
    path: string
    highWatermark: number
    lastStableOffset: number
    readCommitted: number
    readUncommitted: number
    transactions: { committed: number; aborted: number; open: number }
  }>
  topics: Array<{ topic: string; readCommitted: number; readUncommitted: number }>
}

let browser: Browser | undefined
let tmp = ''

async function report(paths: string[], name: string): Promise<string> {
  const out = path.join(tmp, `${name}.html`)
  const r = await runCommand(runReport, { paths, output: out })
  expect(r.code, r.err).toBeLessThan(2)
  return out
}

/** open `file` offline; every request is recorded and anything but the file itself is aborted */
async function load(file: string): Promise<Loaded> {
  const context = await browser!.newContext({ offline: true, viewport: { width: 1200, height: 900 } })
  const requests: string[] = []
  const errors: string[] = []
  const url = pathToFileURL(file).href
  await context.route('**/*', async (route) => {
    await (route.request().url() === url ? route.continue() : route.abort())
  })
  const page = await context.newPage()
  page.on('request', (r) => {
    requests.push(r.url())
  })
  page.on('console', (m) => {
    if (m.type() === 'error' || m.type() === 'warning') errors.push(`console ${m.type()}: ${m.text()}`)
  })
  page.on('pageerror', (e) => {
    errors.push(`page error: ${e.message}`)
  })
  await page.goto(url, { waitUntil: 'load' })
  return { page, requests, errors }
}

function lanes(page: Page): Promise<LaneHooks[]> {
  return page.$$eval('svg.lane', (els) =>
    els.map((e) => {
      const n = (o: string): number => e.querySelectorAll(`rect[data-kind="txn"][data-outcome="${o}"]`).length
      const d = (e as SVGElement).dataset
      return {
        partition: d.partition!,
        hw: d.hw!,
        lso: d.lso!,
        readCommitted: d.readCommitted!,
        readUncommitted: d.readUncommitted!,
        committed: n('committed'),
        aborted: n('aborted'),
        open: n('open'),
      }
    }),
  )
}

const scenarios = fs
  .readdirSync(FIXTURES)
  .filter((s) => fs.existsSync(path.join(FIXTURES, s, 'logs')))
  .sort()

describe.skipIf(!available)('tsdump report in headless Chromium', () => {
  beforeAll(async () => {
    const { chromium } = await import('playwright-core')
    browser = await chromium.launch({ executablePath: CHROMIUM, headless: true, args: ['--no-sandbox'] })
    tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-report-'))
    fs.mkdirSync(ARTIFACTS, { recursive: true })
  }, 60_000)
  afterAll(async () => {
    await browser?.close()
    if (tmp !== '') fs.rmSync(tmp, { recursive: true, force: true })
  })

  for (const s of scenarios) {
    it(`${s}: the lanes say what reconcile --json says; no console error, no network request`, async () => {
      const logs = path.join(FIXTURES, s, 'logs')
      const file = await report([logs], s)
      const rec = JSON.parse((await runCommand(runReconcile, { paths: [logs], format: 'json' })).out) as ReconciledJson
      const { page, requests, errors } = await load(file)
      const got = await lanes(page)
      expect(got.map((l) => l.partition).sort()).toEqual(
        rec.partitions.map((p) => (p.topic !== null ? `${p.topic}-${p.partition}` : p.path)).sort(),
      )
      for (const p of rec.partitions) {
        const id = p.topic !== null ? `${p.topic}-${p.partition}` : p.path
        const l = got.find((x) => x.partition === id)!
        expect({ hw: l.hw, lso: l.lso, rc: l.readCommitted, ru: l.readUncommitted }, id).toEqual({
          hw: String(p.highWatermark),
          lso: String(p.lastStableOffset),
          rc: String(p.readCommitted),
          ru: String(p.readUncommitted),
        })
        expect({ committed: l.committed, aborted: l.aborted, open: l.open }, `${id} drawn transactions`).toEqual({
          committed: p.transactions.committed,
          aborted: p.transactions.aborted,
          open: p.transactions.open,
        })
      }
      for (const t of rec.topics) {
        const row = await page.$eval(`#topics tr[data-topic="${t.topic}"]`, (e) => [
          (e as HTMLElement).dataset.readCommitted,
          (e as HTMLElement).dataset.readUncommitted,
        ])
        expect(row, t.topic).toEqual([String(t.readCommitted), String(t.readUncommitted)])
      }
      // the axis switch and the details panel run without errors
      await page.check('input[name=axis][value=time]')
      expect(await page.evaluate(() => document.body.classList.contains('time'))).toBe(true)
      const first = await page.$('rect[data-kind="txn"], rect[data-kind="plain"]')
      if (first !== null) {
        await first.dispatchEvent('click')
        expect(await page.$eval('#detail', (e) => (e as HTMLElement).hidden)).toBe(false)
      }
      await page.check('input[name=axis][value=offset]')
      expect(errors).toEqual([])
      expect(requests).toEqual([pathToFileURL(file).href])
      await page.context().close()
    })
  }

  it("orders-11: read_committed 8 vs read_uncommitted 16, as the broker's consumers counted; screenshot saved", async () => {
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'orders/expected.json'), 'utf8')) as {
      topics: Array<{ topic: string; readCommitted: number; readUncommitted: number }>
      partitions: Array<{ topic: string; partition: number; highWatermark: number; lastStableOffset: number }>
    }
    const want = expected.topics.find((t) => t.topic === 'orders-11')!
    expect([want.readCommitted, want.readUncommitted]).toEqual([8, 16])
    const dirs = [0, 1, 2].map((n) => path.join(FIXTURES, `orders/logs/orders-11-${n}`))
    const { page, errors } = await load(await report(dirs, 'orders-11'))
    const row = await page.$eval('#topics tr[data-topic="orders-11"]', (e) => [
      (e as HTMLElement).dataset.readCommitted,
      (e as HTMLElement).dataset.readUncommitted,
    ])
    expect(row).toEqual(['8', '16'])
    const got = await lanes(page)
    expect(got.reduce((n, l) => n + Number(l.readCommitted), 0)).toBe(8)
    expect(got.reduce((n, l) => n + Number(l.readUncommitted), 0)).toBe(16)
    for (const e of expected.partitions.filter((x) => x.topic === 'orders-11')) {
      const l = got.find((x) => x.partition === `orders-11-${e.partition}`)!
      expect([l.hw, l.lso]).toEqual([String(e.highWatermark), String(e.lastStableOffset)])
    }
    // orders-11-0: one committed and one aborted transaction, and their two markers
    expect(
      await page.$$eval('svg[data-partition="orders-11-0"] rect[data-kind="marker"]', (els) =>
        els.map((e) => (e as SVGElement).dataset.marker),
      ),
    ).toEqual(['COMMIT', 'ABORT'])
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-orders-11.png'), fullPage: true })
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('open-txn: the transaction holding the LSO is highlighted, as describe-producers saw it, with its abort command', async () => {
    const expected = JSON.parse(fs.readFileSync(path.join(FIXTURES, 'open-txn/expected.json'), 'utf8')) as {
      partitions: Array<{ lastStableOffset: number }>
      producers: Array<{ rows: Array<Record<string, string>> }>
    }
    const open = expected.producers[0]!.rows.filter((r) => r.CurrentTransactionStartOffset !== 'None')
    expect(open).toHaveLength(1)
    const { page, errors } = await load(await report([path.join(FIXTURES, 'open-txn/logs')], 'open-txn-blocked'))
    const blocking = await page.$$eval('svg[data-partition="stuck-0"] rect[data-blocking="true"]', (els) =>
      els.map((e) => ({ ...(e as SVGElement).dataset })),
    )
    expect(blocking).toHaveLength(1)
    expect([blocking[0]!.producerId, blocking[0]!.firstOffset, blocking[0]!.outcome]).toEqual([
      open[0]!.ProducerId,
      open[0]!.CurrentTransactionStartOffset,
      'open',
    ])
    expect(await page.$eval('svg[data-partition="stuck-0"]', (e) => (e as SVGElement).dataset.lso)).toBe(
      String(expected.partitions[0]!.lastStableOffset),
    )
    const callout = await page.$eval('.blocked', (e) => ({
      pid: (e as HTMLElement).dataset.blockingProducerId,
      first: (e as HTMLElement).dataset.blockingFirstOffset,
      text: e.textContent,
    }))
    expect([callout.pid, callout.first]).toEqual([open[0]!.ProducerId, open[0]!.CurrentTransactionStartOffset])
    expect(callout.text).toContain(
      `abort --topic stuck --partition 0 --start-offset ${open[0]!.CurrentTransactionStartOffset}`,
    )
    expect(callout.text).toContain(`--producer-id ${open[0]!.ProducerId} --producer-epoch ${open[0]!.ProducerEpoch}`)
    await page.screenshot({ path: path.join(ARTIFACTS, 'report-open-txn.png'), fullPage: true })
    expect(errors).toEqual([])
    await page.context().close()
  })

  it('a hostile topic name stays text: no element, no script, no dialog', async () => {
    const evil = '"><script>alert(1)</script><img src=x onerror=alert(2)>'
    const file = path.join(tmp, 'hostile.html')
    fs.writeFileSync(file, renderReport(model([partition({ id: `${evil}-0`, topic: evil, path: evil })])))
    const { page, errors, requests } = await load(file)
    const dialogs: string[] = []
    page.on('dialog', async (d) => {
      dialogs.push(d.message())
      await d.dismiss()
    })
    await page.waitForTimeout(100)
    expect(await page.$$eval('img', (els) => els.length)).toBe(0)
    expect(await page.$$eval('script', (els) => els.length)).toBe(1)
    expect(await page.$eval('svg.lane', (e) => (e as SVGElement).dataset.partition)).toBe(`${evil}-0`)
    expect(await page.$eval('h2 + table, .topic h2', (e) => e.textContent)).toContain(evil)
    expect(dialogs).toEqual([])
    expect(errors).toEqual([])
    expect(requests).toEqual([pathToFileURL(file).href])
    await page.context().close()
  })
})
