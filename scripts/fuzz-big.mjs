#!/usr/bin/env node
// The big tier of the hostile-input harness (npm run test:big, called by .ci/run): every class of issue
// #14 at the issue's sizes (a 512 MiB batch, 10 M records, 1 GiB of transactions, sparse files over 2 and
// 4 GiB, the quadratic shapes at scale), built on the fly under $TSDUMP_BIG_DIR or $TMPDIR (sparse where
// the bytes are zeros), never committed, deleted after each class. Each run is a child process measured
// for wall time, CPU time and peak RSS, killed past 60 s or TSDUMP_BIG_KILL_RSS_MIB (1536).
//
//   npm run test:big                          all classes
//   TSDUMP_BIG_ONLY=resync,huge-batch npm run test:big
//
// Exit 0 when every failure is in BIG of scripts/fuzz/expected-failures.mjs and every entry there still
// fails; the table printed at the end is the class -> result record.
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { CLASSES } from './fuzz/classes.mjs'
import { BIG, UNLOCATED_CODES } from './fuzz/expected-failures.mjs'
import { LocationTally, Tally, integrityOf, judge, runAsChild, snapshotInputs } from './fuzz/harness.mjs'
import { prng } from './fuzz.mjs'

async function main() {
  const seed =
    process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (process.pid << 8)) >>> 0
  const only = process.env.TSDUMP_BIG_ONLY?.split(',').filter((x) => x !== '')
  const classes = CLASSES.filter((c) => c.tiers.includes('big') && (only === undefined || only.includes(c.name)))
  const root = fs.mkdtempSync(path.join(process.env.TSDUMP_BIG_DIR ?? os.tmpdir(), 'tsdump-big-'))
  const killRssMiB = Number(process.env.TSDUMP_BIG_KILL_RSS_MIB ?? 1536)
  const rnd = prng(seed)
  const tally = new Tally()
  const where = new LocationTally()
  // the inputs are GiBs: never leave them behind, even when interrupted
  for (const sig of ['SIGINT', 'SIGTERM'])
    process.on(sig, () => {
      fs.rmSync(root, { recursive: true, force: true })
      process.exit(130)
    })
  console.log(`test:big: seed ${seed}, ${classes.length} classes, inputs under ${root} (deleted afterwards)`)
  try {
    for (const cls of classes) {
      const dir = path.join(root, cls.name)
      fs.mkdirSync(dir, { recursive: true })
      const t0 = Date.now()
      const c = cls.make(rnd, dir, 'big')
      console.log(`${cls.name}: built in ${((Date.now() - t0) / 1000).toFixed(1)} s`)
      for (const run of c.runs) {
        run.setup?.()
        const before = c.inputs.length > 0 ? snapshotInputs(c.inputs) : undefined
        const r = await runAsChild(run, { killRssMiB })
        const problems = judge(run, r, integrityOf(before, c.inputs), where)
        const key = `${cls.name}:${run.label}`
        tally.add(key, r, problems)
        const verdict =
          problems.length === 0
            ? 'pass'
            : problems
                .map(([k, m]) => `${BIG[`${key}/${k}`] !== undefined ? 'expected ' : ''}FAIL ${k}: ${m}`)
                .join('; ')
        console.log(
          `  ${key}: exit ${r.code}, ${r.seconds.toFixed(1)} s wall, ${Number.isFinite(r.cpuSeconds) ? r.cpuSeconds.toFixed(1) : '?'} s CPU, ${Math.round(r.rssMiB)} MiB peak RSS: ${verdict}`,
        )
        if (problems.length > 0)
          console.log(
            `    reproduce: (build with TSDUMP_BIG_ONLY=${cls.name} FUZZ_SEED=${seed}) node bin/tsdump.js ${run.argv.join(' ')}`,
          )
      }
      fs.rmSync(dir, { recursive: true, force: true })
    }
  } finally {
    fs.rmSync(root, { recursive: true, force: true })
  }
  const { unexpected, stale } = tally.verdict(BIG, (name) => classes.some((c) => c.name === name))
  const loc = where.verdict(UNLOCATED_CODES).filter((p) => !/is now always located/.test(p) || only === undefined)
  console.log(`\n${tally.table(BIG)}\n`)
  for (const u of unexpected) console.log(`UNEXPECTED: ${u}`)
  for (const s of [...stale, ...loc]) console.log(`LIST: ${s}`)
  return unexpected.length + stale.length + loc.length === 0 ? 0 : 1
}

process.exitCode = await main()
