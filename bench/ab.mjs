#!/usr/bin/env node
// Before/after on one input: tsdump builds of git refs (or the work tree) and environment variants, run alternately
// under /usr/bin/time; medians of wall, CPU (user+sys) and peak RSS. Made for "did this change help" questions on a
// shared machine, where CPU time is the number to trust.
//
//   node bench/ab.mjs --runs 5 --variant before=fd7e918 --variant after=WORKTREE \
//        --variant 'after-no-native=WORKTREE TSDUMP_CRC32C=no-native' -- bench/data/bench-mid-1GiB-0/00000000000000000000.log
//
// A variant is NAME=REF [VAR=VALUE ...]: REF is a commit (its src/ is compiled into bench/data/ab-<sha>/dist) or
// WORKTREE (this tree's dist/, built by npm run build). Everything after -- is passed to tsdump; stdout goes to /dev/null.
import { spawn, execFileSync } from 'node:child_process'
import fs from 'node:fs'
import os from 'node:os'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import { median } from './report.mjs'

const here = path.dirname(fileURLToPath(import.meta.url))
const repo = path.resolve(here, '..')

function build(ref) {
  if (ref === 'WORKTREE') return path.join(repo, 'dist')
  const sha = execFileSync('git', ['-C', repo, 'rev-parse', '--short', ref], { encoding: 'utf8' }).trim()
  const dir = path.join(here, 'data', `ab-${sha}`)
  if (!fs.existsSync(path.join(dir, 'dist', 'cli', 'main.js'))) {
    fs.rmSync(dir, { recursive: true, force: true })
    fs.mkdirSync(dir, { recursive: true })
    // inside the repo, so that node_modules resolves as for the real build
    execFileSync('bash', ['-c', `git -C '${repo}' archive ${sha} src tsconfig.json | tar -x -C '${dir}'`])
    execFileSync(path.join(repo, 'node_modules', '.bin', 'tsc'), ['-p', path.join(dir, 'tsconfig.json')], {
      stdio: 'inherit',
    })
  }
  return path.join(dir, 'dist')
}

function timed(entryDist, env, args) {
  const tfile = path.join(os.tmpdir(), `ab-time-${process.pid}.txt`)
  const shim = `import { main } from ${JSON.stringify(path.join(entryDist, 'cli', 'main.js'))}; process.exitCode = await main(process.argv.slice(1))`
  return new Promise((resolve, reject) => {
    const t0 = process.hrtime.bigint()
    const c = spawn('/usr/bin/time', ['-v', '-o', tfile, 'node', '--input-type=module', '-e', shim, ...args], {
      stdio: ['ignore', 'ignore', 'inherit'],
      env: { ...process.env, ...env },
    })
    c.on('error', reject)
    c.on('close', (code) => {
      const wall = Number(process.hrtime.bigint() - t0) / 1e9
      const t = fs.readFileSync(tfile, 'utf8')
      const num = (re) => Number(re.exec(t)?.[1])
      resolve({
        code,
        wall,
        cpu: num(/User time \(seconds\): ([\d.]+)/) + num(/System time \(seconds\): ([\d.]+)/),
        rssKiB: num(/Maximum resident set size \(kbytes\): (\d+)/),
      })
    })
  })
}

async function main(argv) {
  const variants = []
  let runs = 5
  const sep = argv.indexOf('--')
  const args = sep >= 0 ? argv.slice(sep + 1) : []
  const opts = sep >= 0 ? argv.slice(0, sep) : argv
  for (let i = 0; i < opts.length; i++) {
    if (opts[i] === '--runs') runs = Number(opts[++i])
    else if (opts[i] === '--variant') {
      const [name, rest] = [opts[++i].slice(0, opts[i].indexOf('=')), opts[i].slice(opts[i].indexOf('=') + 1)]
      const [ref, ...vars] = rest.split(/\s+/)
      variants.push({ name, ref, env: Object.fromEntries(vars.map((v) => v.split('='))), runs: [] })
    } else {
      console.error(`unknown argument ${opts[i]}`)
      process.exit(2)
    }
  }
  if (variants.length === 0 || args.length === 0) {
    console.error('usage: node bench/ab.mjs [--runs N] --variant NAME=REF [VAR=V..] ... -- TSDUMP ARGS')
    process.exit(2)
  }
  for (const v of variants) v.dist = build(v.ref)
  for (let i = 0; i < runs; i++) {
    for (const v of i % 2 === 0 ? variants : [...variants].reverse()) {
      const r = await timed(v.dist, v.env, args)
      v.runs.push(r)
      console.error(
        `${v.name} #${i + 1}: wall ${r.wall.toFixed(2)} s, CPU ${r.cpu.toFixed(2)} s, ${(r.rssKiB / 1024).toFixed(0)} MiB, exit ${r.code}, load ${os.loadavg()[0].toFixed(1)}`,
      )
    }
  }
  const first = variants[0]
  const cpu0 = median(first.runs.map((r) => r.cpu))
  console.log(
    `tsdump ${args.join(' ')}: ${runs} alternating runs per variant, medians; load average ${os
      .loadavg()
      .map((x) => x.toFixed(1))
      .join(' ')} at the end\n`,
  )
  console.log(
    `| variant | build | env | wall s | CPU s | CPU vs ${first.name} | peak RSS | CPU per run |\n|---|---|---|---:|---:|---:|---:|---|`,
  )
  for (const v of variants) {
    const cpu = median(v.runs.map((r) => r.cpu))
    console.log(
      `| ${v.name} | ${v.ref} | ${Object.entries(v.env)
        .map(([k, x]) => `${k}=${x}`)
        .join(
          ' ',
        )} | ${median(v.runs.map((r) => r.wall)).toFixed(2)} | ${cpu.toFixed(2)} | ${(cpu0 / cpu).toFixed(2)}× | ${(Math.max(...v.runs.map((r) => r.rssKiB)) / 1024).toFixed(0)} MiB | ${v.runs.map((r) => r.cpu.toFixed(2)).join(' ')} |`,
    )
  }
}

await main(process.argv.slice(2))
