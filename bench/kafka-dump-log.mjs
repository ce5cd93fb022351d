// kafka-dump-log of one or more Kafka versions, for the benchmark (issue #15: 3.9.1 and 4.4.0 side by side).
//
// Versions: KAFKA_VERSION=V (the variable scripts/kafka/env.sh reads) benchmarks V only; otherwise --kafka V1,V2
// (default 3.9.1,4.4.0). Jars: a complete .cache/kafka-V/lib (what scripts/kafka/install.sh leaves, for any version
// it supports) is used as it is; otherwise bench/kafka/pom.xml is resolved with mvn into .cache/kafka-bench-V/lib
// (from ~/.m2 when it is there, else Maven Central). The main class moved in 4.x: kafka.tools.DumpLogSegments
// (kafka_2.13, Scala) up to 3.x, org.apache.kafka.tools.DumpLogSegments (kafka-tools, Java) after; it is found by
// looking for the class in the jars, not guessed from the version.
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'

export const DEFAULT_KAFKA_VERSIONS = ['3.9.1', '4.4.0']

const MAIN_CLASSES = [
  { cls: 'org.apache.kafka.tools.DumpLogSegments', jar: (v) => `kafka-tools-${v}.jar` },
  { cls: 'kafka.tools.DumpLogSegments', jar: (v) => `kafka_2.13-${v}.jar` },
]

function mainClassIn(lib, v) {
  for (const m of MAIN_CLASSES) {
    const jar = path.join(lib, m.jar(v))
    // a jar's central directory holds the entry names uncompressed
    if (fs.existsSync(jar) && fs.readFileSync(jar).includes(m.cls.replace(/\./g, '/') + '.class')) return m.cls
  }
  return undefined
}

/** { version, lib, mainClass, log4j } for version v; resolves the jars when they are missing */
export function kafkaDumpLog(repo, v, log = console.error) {
  const candidates = [
    path.join(repo, '.cache', `kafka-${v}`, 'lib'),
    path.join(repo, '.cache', `kafka-bench-${v}`, 'lib'),
  ]
  let lib = candidates.find(
    (l) => mainClassIn(l, v) !== undefined && fs.existsSync(path.join(l, 'slf4j-reload4j-1.7.36.jar')),
  )
  if (lib === undefined) {
    lib = candidates[1]
    const tmp = `${lib}.tmp.${process.pid}`
    log(`resolving kafka-dump-log ${v} into ${path.relative(repo, lib)} (mvn, bench/kafka/pom.xml)`)
    fs.rmSync(tmp, { recursive: true, force: true })
    execFileSync(
      'mvn',
      [
        '-B',
        '-q',
        '-Dstyle.color=never',
        '-f',
        path.join(repo, 'bench', 'kafka', 'pom.xml'),
        `-Dkafka.version=${v}`,
        'org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy-dependencies',
        '-DincludeScope=runtime',
        `-DoutputDirectory=${tmp}`,
      ],
      { stdio: ['ignore', 'inherit', 'inherit'] },
    )
    if (mainClassIn(tmp, v) === undefined)
      throw new Error(`no DumpLogSegments class in the jars resolved for Kafka ${v}`)
    fs.rmSync(lib, { recursive: true, force: true })
    fs.renameSync(tmp, lib)
  }
  const log4j = path.join(path.dirname(lib), 'bench-log4j.properties')
  if (!fs.existsSync(log4j)) {
    fs.writeFileSync(
      log4j,
      'log4j.rootLogger=WARN, stderr\nlog4j.appender.stderr=org.apache.log4j.ConsoleAppender\n' +
        'log4j.appender.stderr.layout=org.apache.log4j.PatternLayout\nlog4j.appender.stderr.layout.ConversionPattern=[%d] %p %m (%c)%n\n' +
        'log4j.appender.stderr.Target=System.err\n',
    )
  }
  return { version: v, lib, mainClass: mainClassIn(lib, v), log4j }
}

/** the versions to benchmark: KAFKA_VERSION wins, then the --kafka list */
export function kafkaVersions(list) {
  return process.env.KAFKA_VERSION ? [process.env.KAFKA_VERSION] : (list ?? DEFAULT_KAFKA_VERSIONS)
}
