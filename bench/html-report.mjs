#!/usr/bin/env node
// Benchmark of `tsdump report` (issue #13): the size of the HTML and the time headless Chromium takes
// to render it, on the broker fixtures and on a 1 GiB transactional segment (bench/make-segments.mjs,
// kind txn: real broker batches repeated, millions of transactions in one partition). Also the CPU
// time and peak RSS of `report` next to `reconcile` and `txns` on the same input (the report's lane
// is bucketed while streaming, so it should cost about what reconcile costs, not what txns costs).
//
// usage: npm run build && node bench/html-report.mjs [--size 1GiB] [--out bench/data] [--runs 3] [--chromium /usr/bin/chromium]
// Writes bench/RESULTS-report.md. Numbers are measured on a shared machine: CPU time (user+sys) is the
// steadier figure; render times are the median of --runs page loads.
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { spawnSync } from 'node:child_process'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { ensureSegments, parseSize, sizeLabel } from './make-segments.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')
const bin = path.join(repo, 'bin', 'tsdump.js')

function args() {
  const a = { size: '1GiB', out: path.join(here, 'data'), runs: 3, chromium: '/usr/bin/chromium' }
  const v = process.argv.slice(2)
  for (let i = 0; i < v.length; i += 2) a[v[i].replace(/^--/, '')] = v[i + 1]
  a.runs = Number(a.runs)
  return a
}

/** run tsdump under /usr/bin/time: wall, user+sys CPU seconds, max RSS MiB */
function timed(argv) {
  // stdout goes to /dev/null: txns --json on millions of transactions prints hundreds of MB
  const r = spawnSync('/usr/bin/time', ['-f', 'TIME %e %U %S %M', process.execPath, bin, ...argv], {
    encoding: 'utf8',
    stdio: ['ignore', 'ignore', 'pipe'],
  })
  const m = /TIME ([\d.]+) ([\d.]+) ([\d.]+) (\d+)/.exec(r.stderr)
  if (m === null) throw new Error(`tsdump ${argv.join(' ')}: ${r.stderr}`)
  return { code: r.status, wall: Number(m[1]), cpu: Number(m[2]) + Number(m[3]), rssMiB: Number(m[4]) / 1024 }
}

function median(xs) {
  const s = [...xs].sort((a, b) => a - b)
  return s[Math.floor(s.length / 2)]
}

/** load the page offline; time from navigation to the load event and to the first frame after it; and the axis switch */
async function render(browser, file) {
  const context = await browser.newContext({ offline: true, viewport: { width: 1200, height: 900 } })
  const page = await context.newPage()
  const errors = []
  page.on('pageerror', (e) => errors.push(e.message))
  page.on('console', (m) => {
    if (m.type() === 'error') errors.push(m.text())
  })
  const t0 = Date.now()
  await page.goto(pathToFileURL(file).href, { waitUntil: 'load' })
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  const wall = Date.now() - t0
  const nav = await page.evaluate(() => {
    const n = performance.getEntriesByType('navigation')[0]
    return { dcl: n.domContentLoadedEventEnd, load: n.loadEventEnd }
  })
  const elements = await page.evaluate(() => document.querySelectorAll('svg.lane *').length)
  const s0 = Date.now()
  await page.check('input[name=axis][value=time]')
  await page.evaluate(() => new Promise((resolve) => requestAnimationFrame(() => requestAnimationFrame(resolve))))
  const axisSwitch = Date.now() - s0
  await context.close()
  return { wall, dcl: nav.dcl, load: nav.load, elements, axisSwitch, errors }
}

async function main() {
  const a = args()
  const size = parseSize(a.size)
  const tmp = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-report-bench-'))
  const { chromium } = await import('playwright-core')
  const haveBrowser = fs.existsSync(a.chromium)
  const browser = haveBrowser
    ? await chromium.launch({ executablePath: a.chromium, headless: true, args: ['--no-sandbox'] })
    : null
  const rows = []
  const fixtures = path.join(repo, 'fixtures', 'broker')
  const inputs = fs
    .readdirSync(fixtures)
    .filter((s) => fs.existsSync(path.join(fixtures, s, 'logs')))
    .sort()
    .map((s) => ({ name: `fixture ${s}`, dir: path.join(fixtures, s, 'logs') }))
  const [seg] = ensureSegments({ out: a.out, size, only: ['txn'] })
  inputs.push({ name: `bench-txn-${sizeLabel(size)}`, dir: path.dirname(seg.file), stats: seg.stats, big: true })
  for (const input of inputs) {
    const out = path.join(tmp, `${input.name.replace(/\W+/g, '-')}.html`)
    const rep = timed(['report', input.dir, '-o', out])
    const bytes = fs.statSync(out).size
    const row = { name: input.name, bytes, report: rep, stats: input.stats }
    if (input.big) {
      row.reconcile = timed(['reconcile', input.dir])
      row.txns = timed(['txns', '--json', input.dir])
    }
    if (browser !== null) {
      const runs = []
      for (let i = 0; i < (input.big ? a.runs : 1); i++) runs.push(await render(browser, out))
      row.render = {
        wall: median(runs.map((r) => r.wall)),
        load: median(runs.map((r) => r.load)),
        axisSwitch: median(runs.map((r) => r.axisSwitch)),
        elements: runs[0].elements,
        errors: runs.flatMap((r) => r.errors),
      }
    }
    rows.push(row)
    console.error(
      `${input.name}: ${bytes} bytes, report ${rep.cpu.toFixed(2)} s CPU, ${rep.rssMiB.toFixed(0)} MiB RSS` +
        (row.render
          ? `, render ${row.render.wall} ms (load event ${row.render.load.toFixed(0)} ms), ${row.render.elements} SVG elements`
          : ''),
    )
  }
  await browser?.close()
  fs.rmSync(tmp, { recursive: true, force: true })
  write(rows, a, haveBrowser)
}

function write(rows, a, haveBrowser) {
  const L = [
    '# `tsdump report` benchmark (issue #13)',
    '',
    `Measured ${new Date().toISOString()} on ${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown CPU'}), Node ${process.version}, shared with other work:`,
    'CPU time (user+sys) is the steadier figure. Render: headless Chromium (Debian package), page loaded from file:// offline, time from',
    'navigation to two animation frames after the load event (median of the runs; 1 run for the fixtures). `node bench/html-report.mjs` rewrites this file.',
    '',
    '| input | HTML bytes | report wall s | report CPU s | report RSS MiB | render ms | load event ms | axis switch ms | SVG elements | console errors |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|',
  ]
  for (const r of rows) {
    const ren = r.render
    L.push(
      `| ${r.name} | ${r.bytes} | ${r.report.wall.toFixed(2)} | ${r.report.cpu.toFixed(2)} | ${r.report.rssMiB.toFixed(0)} | ${ren ? ren.wall : '-'} | ${ren ? ren.load.toFixed(0) : '-'} | ${ren ? ren.axisSwitch : '-'} | ${ren ? ren.elements : '-'} | ${ren ? ren.errors.length : '-'} |`,
    )
  }
  if (!haveBrowser) L.push('', `No browser at ${a.chromium}: render times not measured.`)
  const big = rows.find((r) => r.reconcile)
  if (big) {
    const s = big.stats ?? {}
    L.push(
      '',
      `## ${big.name}`,
      '',
      `${s.bytes ?? '?'} bytes, ${s.batches ?? '?'} batches, ${s.records ?? '?'} records, ${s.control ?? '?'} control batches (bench/make-segments.mjs, kind txn).`,
      '',
      '| command | wall s | CPU s | max RSS MiB |',
      '|---|---:|---:|---:|',
      `| report -o file | ${big.report.wall.toFixed(2)} | ${big.report.cpu.toFixed(2)} | ${big.report.rssMiB.toFixed(0)} |`,
      `| reconcile | ${big.reconcile.wall.toFixed(2)} | ${big.reconcile.cpu.toFixed(2)} | ${big.reconcile.rssMiB.toFixed(0)} |`,
      `| txns --json (stdout to /dev/null) | ${big.txns.wall.toFixed(2)} | ${big.txns.cpu.toFixed(2)} | ${big.txns.rssMiB.toFixed(0)} |`,
      '',
      `Bounds of the issue: report < 5 MB (${big.bytes < 5e6 ? 'met' : 'NOT met'}: ${(big.bytes / 1e6).toFixed(2)} MB), render < 2 s` +
        (big.render ? ` (${big.render.wall < 2000 ? 'met' : 'NOT met'}: ${big.render.wall} ms)` : ' (not measured)') +
        '.',
    )
  }
  fs.writeFileSync(path.join(here, 'RESULTS-report.md'), L.join('\n') + '\n')
}

await main()
