#!/usr/bin/env node
// The fast tier of the hostile-input harness (npm run test:fuzz, in CI): at least FUZZ_INPUTS (5,000)
// generated inputs, seeded (FUZZ_SEED reproduces a run). Every class of issue #14 at small scale (small
// --window values make the larger-than-the-window paths run on small files), plus random and mutated
// Kafka files, through main() in-process for speed; the first instances of each class and a sample of the
// random inputs again as child processes, for wall time and peak RSS. Failures print the input's saved
// path and the argv that reproduces it.
import { spawnSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as os from 'node:os'
import * as path from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { CLASSES } from './fuzz/classes.mjs'
import { FAST, UNLOCATED_CODES } from './fuzz/expected-failures.mjs'
import { LocationTally, Tally, integrityOf, judge, runAsChild, runInProcess, snapshotInputs } from './fuzz/harness.mjs'
import { loadSeeds, makeCase, prng, startWatchdog } from './fuzz.mjs'

const REPO = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

/** A copy of a failing input (sparse files stay sparse: some inputs are multi-GiB holes). */
function save(dir, seed, tag) {
  const saved = fs.mkdtempSync(path.join(os.tmpdir(), `tsdump-fuzz-fail-${seed}-${tag}-`))
  const r = spawnSync('cp', ['-a', '--sparse=always', `${dir}/.`, saved])
  return r.status === 0 ? saved : `${saved} (copy incomplete: ${String(r.stderr).trim()})`
}

async function main() {
  const seed =
    process.env.FUZZ_SEED !== undefined ? Number(process.env.FUZZ_SEED) : (Date.now() ^ (process.pid << 8)) >>> 0
  const inputs = Number(process.env.FUZZ_INPUTS ?? 5000)
  const perClass = Number(process.env.FUZZ_PER_CLASS ?? 40)
  const childSamples = Number(process.env.FUZZ_CHILD_SAMPLES ?? 60)
  const mainJs = path.join(REPO, 'dist/cli/main.js')
  if (!fs.existsSync(mainJs)) {
    process.stderr.write('fuzz: dist/cli/main.js is missing: run `npm run build` first\n')
    return 2
  }
  const { main: tsdump } = await import(pathToFileURL(mainJs).href)
  const beat = await startWatchdog(Number(process.env.FUZZ_HANG_SECONDS ?? 60))
  const rnd = prng(seed)
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'tsdump-fuzz-ci-'))
  const tally = new Tally()
  const where = new LocationTally()
  const failures = []
  let runs = 0
  let made = 0
  const t0 = Date.now()
  console.log(`fuzz-ci: seed ${seed} (FUZZ_SEED=${seed} reproduces), ${inputs} inputs, work dir ${work}`)

  const one = async (key, run, dir, inputsOf, child) => {
    Atomics.store(beat, 0, ++runs)
    fs.writeFileSync(path.join(work, 'argv.txt'), `seed ${seed} ${key}\n${run.argv.join(' ')}\n`) // for a hang post-mortem
    const before = inputsOf.length > 0 ? snapshotInputs(inputsOf) : undefined
    const r = child ? await runAsChild(run) : await runInProcess(tsdump, run.argv)
    report(key, run, r, judge(run, r, integrityOf(before, inputsOf), where), dir, child)
  }
  const report = (key, run, r, problems, dir, child) => {
    tally.add(key, r, problems)
    if (
      problems.some(([check]) => FAST[`${key}/${check}`] === undefined) &&
      !failures.includes(key) &&
      failures.length < 20
    ) {
      const saved = save(dir, seed, runs)
      const argv = run.argv.map((a) => (a.startsWith(dir) ? saved + a.slice(dir.length) : a))
      failures.push(key)
      console.log(
        `fuzz-ci: FAILURE ${key} (${child ? 'child' : 'in-process'}, seed ${seed}): ${problems.map(([c, m]) => `${c}: ${m}`).join('; ')}\n  input: ${saved}\n  reproduce: node bin/tsdump.js ${argv.join(' ')}`,
      )
    }
  }

  try {
    // every class at small scale
    for (const cls of CLASSES.filter((c) => c.tiers.includes('fast'))) {
      const tc = Date.now()
      const n = Math.min(cls.perClass ?? perClass, perClass) // a class whose every instance runs many commands asks for fewer
      for (let i = 0; i < n; i++) {
        const dir = path.join(work, 'case')
        fs.rmSync(dir, { recursive: true, force: true })
        fs.mkdirSync(dir, { recursive: true })
        const c = cls.make(rnd, dir, 'fast')
        made++
        const childOnly = c.runs.some((r) => r.childOnly === true)
        if (childOnly && i >= 3) continue // child runs cost ~0.3 s each: a few instances are enough
        // inputs are checked around every run of the first instance, then around all runs of each one
        // (hashing multi-GiB sparse files costs more than the runs)
        const before = i > 0 && c.inputs.length > 0 ? snapshotInputs(c.inputs) : undefined
        for (const run of c.runs) {
          run.setup?.()
          await one(
            `${cls.name}:${run.label}`,
            run,
            dir,
            i === 0 ? c.inputs : [],
            run.childOnly === true || (i === 0 && run.during === undefined),
          )
        }
        const w = integrityOf(before, c.inputs)
        if (before !== undefined)
          report(
            `${cls.name}:all-runs`,
            { argv: c.runs.at(-1).argv },
            { seconds: 0 },
            w === undefined ? [] : [['writes', w]],
            dir,
            false,
          )
      }
      console.log(`fuzz-ci: ${cls.name}: ${n} inputs in ${((Date.now() - tc) / 1000).toFixed(1)} s`)
    }
    // random and mutated Kafka files until the input count is reached
    const seeds = loadSeeds([path.resolve(REPO, '../shared/corpus'), path.join(REPO, 'fixtures/broker')])
    const every = Math.max(1, Math.floor((inputs - made) / childSamples))
    for (let i = 0; made < inputs; i++, made++) {
      const c = makeCase(rnd, seeds, path.join(work, 'case'))
      await one(
        `random:${c.argv[0].startsWith('-') || c.argv[0].startsWith('/') ? 'dump' : c.argv[0]}`,
        { argv: c.argv },
        c.dir,
        [c.dir],
        i % every === 0,
      )
    }
  } finally {
    fs.rmSync(work, { recursive: true, force: true })
  }
  const { unexpected, stale } = tally.verdict(FAST, (name) =>
    CLASSES.some((c) => c.name === name && c.tiers.includes('fast')),
  )
  const loc = where.verdict(UNLOCATED_CODES)
  console.log(tally.table(FAST))
  console.log(
    `\nfuzz-ci: ${made} generated inputs, ${runs} runs in ${((Date.now() - t0) / 1000).toFixed(0)} s (seed ${seed})`,
  )
  console.log(
    `findings seen in --json: ${[...where.seen].map(([c, n]) => `${c} ${n}${where.unlocated.has(c) ? ` (${where.unlocated.get(c)} unlocated)` : ''}`).join(', ')}`,
  )
  for (const u of unexpected) console.log(`UNEXPECTED: ${u}`)
  for (const s of [...stale, ...loc]) console.log(`LIST: ${s}`)
  if (made < 5000 && process.env.FUZZ_INPUTS === undefined) console.log('fewer than 5,000 inputs')
  return unexpected.length + stale.length + loc.length === 0 ? 0 : 1
}

process.exitCode = await main()
