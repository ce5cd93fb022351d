#!/usr/bin/env node
// Re-run every kafka-dump-log command of the broker fixtures (fixtures/broker/*/manifest.json) with the
// DumpLogSegments of other Kafka releases, to find every textual difference between releases
// (docs/kafka-versions.md). Not used by the tests.
//
//   node scripts/kafka/dump-releases.mjs <release>=<lib dir> ... --out <dir> [--scenario name ...]
//
// <lib dir> holds the runtime classpath of org.apache.kafka:kafka_2.13 + kafka-tools of that release
// (mvn dependency:copy-dependencies with scripts/kafka/releases-pom.xml; see its header). Output:
// <out>/<release>/<scenario>/<manifest stdout path> (the same relative paths as the stored 3.9.1 dumps),
// plus <out>/<release>/<scenario>/runs.json with each JVM's command, exit code and stderr.
// One JVM per (scenario, mode): all files of a mode go into one --files list and stdout is split at the
// "Dumping <file>" headers (the per-file reports of stderr stay whole, in runs.json).
import fs from 'node:fs'
import path from 'node:path'
import { parseArgs, runTool } from './releases-lib.mjs'

const ROOT = path.resolve(path.dirname(new URL(import.meta.url).pathname), '../..')
const scenarios = []
const { releases, out } = parseArgs(process.argv.slice(2), { '--scenario': (v) => scenarios.push(v) })
for (const r of releases) r.lib = path.resolve(r.lib)

function splitByFile(stdout) {
  const parts = new Map()
  let cur = null
  for (const line of stdout.split(/(?<=\n)/)) {
    if (line.startsWith('Dumping ')) {
      cur = line.slice('Dumping '.length).replace(/\n$/, '')
      parts.set(cur, '')
    }
    if (cur !== null) parts.set(cur, parts.get(cur) + line)
  }
  return parts
}

const broker = path.join(ROOT, 'fixtures/broker')
const names = scenarios.length
  ? scenarios
  : fs.readdirSync(broker).filter((n) => fs.existsSync(path.join(broker, n, 'manifest.json')))
for (const { rel, lib } of releases) {
  for (const name of names) {
    const manifest = JSON.parse(fs.readFileSync(path.join(broker, name, 'manifest.json'), 'utf8'))
    const groups = new Map()
    for (const d of manifest.dumps) {
      const flags = d.command.replace(/^kafka-dump-log\.sh ?/, '').replace(/ ?--files \S+$/, '')
      if (!groups.has(flags)) groups.set(flags, [])
      groups.get(flags).push(d)
    }
    const runs = []
    for (const [flags, dumps] of groups) {
      const args = [...(flags ? flags.split(' ') : []), '--files', dumps.map((d) => d.file).join(',')]
      const r = runTool(rel, lib, args, path.join(broker, name, manifest.dumps[0].cwd))
      runs.push({ args, exitCode: r.status, stderr: r.stderr })
      const parts = splitByFile(r.stdout)
      for (const d of dumps) {
        const dest = path.join(out, rel, name, d.stdout)
        fs.mkdirSync(path.dirname(dest), { recursive: true })
        fs.writeFileSync(dest, parts.get(d.file) ?? '')
      }
      console.log(
        `${rel} ${name} [${flags}] ${dumps.length} files exit ${r.status}${r.stderr ? ` stderr ${r.stderr.length} chars` : ''}`,
      )
    }
    fs.writeFileSync(path.join(out, rel, name, 'runs.json'), JSON.stringify(runs, null, 1))
  }
}
