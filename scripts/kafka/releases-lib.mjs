// Running DumpLogSegments of a given Kafka release (shared by dump-releases.mjs and dump-release-cases.mjs).
import { spawnSync } from 'node:child_process'

// DumpLogSegments moved from Scala (core) to Java (tools) in 4.3 (KAFKA-14579).
export function mainClass(rel) {
  const [maj, min] = rel.split('.').map(Number)
  return maj > 4 || (maj === 4 && min >= 3) ? 'org.apache.kafka.tools.DumpLogSegments' : 'kafka.tools.DumpLogSegments'
}

/** run the release's tool with the jars in `lib` (the runtime classpath of kafka_2.13 + kafka-tools) */
export function runTool(rel, lib, args, cwd) {
  const java = ['-Xmx256m', '-XX:+UseSerialGC', '-XX:TieredStopAtLevel=1', '-cp', `${lib}/*`, mainClass(rel), ...args]
  const r = spawnSync('java', java, { cwd, encoding: 'utf8', maxBuffer: 1 << 30 })
  return { stdout: r.stdout, stderr: r.stderr, status: r.status }
}

/** `<release>=<lib dir>` arguments and --out */
export function parseArgs(argv, extra = {}) {
  const releases = []
  let out
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--out') out = argv[++i]
    else if (extra[argv[i]]) extra[argv[i]](argv[++i])
    else if (argv[i].includes('=')) {
      const [rel, lib] = argv[i].split('=')
      releases.push({ rel, lib })
    } else throw new Error(`bad argument ${argv[i]}`)
  }
  if (!out || releases.length === 0) throw new Error('usage: <release>=<lib dir> ... --out <dir>')
  return { releases, out }
}
