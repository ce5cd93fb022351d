#!/usr/bin/env node
// Generates src/decode/protocol/generated/<topic>-messages.ts from Kafka's own JSON message definitions, which Kafka ships as
// resources inside its jars (e.g. kafka-group-coordinator-4.4.0.jar: common/message/OffsetCommitValue.json).
//
//   node scripts/gen-schemas.mjs           fetch the jars with mvn into .cache/schema-jars/, write the tables
//   node scripts/gen-schemas.mjs --check   write nothing; exit 1 when a committed table differs (CI)
//
// The newest release (LATEST) gives each topic's full table; every older release contributes only the
// messages whose definition differs from LATEST's (or null: the release does not have that message), so
// the decoders can read bytes as the release that wrote them did (e.g. ShareSnapshotValue of 4.0).
// The tables are data derived from the definitions; no Kafka code is copied.
import { execFileSync } from 'node:child_process'
import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const CACHE = path.join(ROOT, '.cache', 'schema-jars')
const OUT = path.join(ROOT, 'src', 'decode', 'protocol', 'generated')
const LATEST = '4.4.0'
/** release label -> Maven version whose jars define it */
export const RELEASES = { 3.9: '3.9.1', '4.0': '4.0.2', 4.1: '4.1.2', 4.2: '4.2.2', 4.3: '4.3.1', 4.4: LATEST }

/** topic table -> [artifact, path prefix inside the jar, file filter] */
const TOPICS = {
  'consumer-offsets': [
    ['kafka-group-coordinator', 'common/message/', (n) => !/^ConsumerProtocol/.test(n)],
    ['kafka-clients', 'common/message/', (n) => /^ConsumerProtocol(Subscription|Assignment)\.json$/.test(n)],
  ],
  'transaction-state': [
    ['kafka-transaction-coordinator', 'common/message/', (n) => /^TransactionLog(Key|Value)\.json$/.test(n)],
  ],
  'share-group-state': [['kafka-share-coordinator', 'common/message/', () => true]],
  'remote-log-metadata': [['kafka-storage', 'message/', (n) => /^Remote.*Record\.json$/.test(n)]],
  'cluster-metadata': [['kafka-metadata', 'common/metadata/', () => true]],
  control: [
    [
      'kafka-clients',
      'common/message/',
      (n) =>
        /^(LeaderChangeMessage|SnapshotHeaderRecord|SnapshotFooterRecord|KRaftVersionRecord|VotersRecord|EndTxnMarker|ControlRecordTypeSchema)\.json$/.test(
          n,
        ),
    ],
  ],
}

const check = process.argv.includes('--check')

function jarPath(artifact, version) {
  const dir = path.join(CACHE, version)
  const jar = path.join(dir, `${artifact}-${version}.jar`)
  const absent = `${jar}.absent`
  if (!fs.existsSync(jar) && !fs.existsSync(absent)) {
    if (check && process.env.TSDUMP_GEN_FETCH !== '1') return null
    fs.mkdirSync(dir, { recursive: true })
    try {
      execFileSync(
        'mvn',
        [
          '-B',
          '-q',
          '-Dstyle.color=never',
          'org.apache.maven.plugins:maven-dependency-plugin:3.6.1:copy',
          `-Dartifact=org.apache.kafka:${artifact}:${version}`,
          `-DoutputDirectory=${dir}`,
        ],
        { stdio: ['ignore', 'ignore', 'inherit'] },
      )
    } catch {
      // e.g. kafka-share-coordinator before 4.0: remembered, so --check knows the release simply lacks it
      fs.writeFileSync(absent, `org.apache.kafka:${artifact}:${version} is not on Maven Central\n`)
    }
  }
  return jar
}

function jarJson(jar, prefix, filter) {
  const names = execFileSync('unzip', ['-Z1', jar], { encoding: 'utf8' })
    .split('\n')
    .filter(
      (n) =>
        n.startsWith(prefix) &&
        n.endsWith('.json') &&
        !n.slice(prefix.length).includes('/') &&
        filter(n.slice(prefix.length)),
    )
  return names
    .sort()
    .map((n) => parseJson(execFileSync('unzip', ['-p', jar, n], { encoding: 'utf8', maxBuffer: 1 << 24 })))
}

/** Kafka's definition files are JSON with // comments (outside strings) */
function parseJson(text) {
  let out = ''
  let inString = false
  for (let i = 0; i < text.length; i++) {
    const c = text[i]
    if (inString) {
      out += c
      if (c === '\\') out += text[++i]
      else if (c === '"') inString = false
    } else if (c === '"') {
      inString = true
      out += c
    } else if (c === '/' && text[i + 1] === '/') {
      while (i < text.length && text[i] !== '\n') i++
      out += '\n'
    } else out += c
  }
  return JSON.parse(out)
}

const NONE = null
/** "3+" | "0-4" | "2" | "none" -> [lo, hi] (hi 32767 for "+") or null */
function range(s) {
  if (s === undefined || s === 'none' || s === '') return NONE
  if (s.endsWith('+')) return [Number(s.slice(0, -1)), 32767]
  const [a, b] = s.split('-')
  return [Number(a), Number(b ?? a)]
}

const PRIMITIVES = new Set([
  'int8',
  'int16',
  'uint16',
  'int32',
  'uint32',
  'int64',
  'float64',
  'bool',
  'string',
  'bytes',
  'records',
  'uuid',
])

/** Kafka's FieldSpec.camelCaseName: the name with its first letter lower-cased (the JSON key) */
const camel = (n) => n[0].toLowerCase() + n.slice(1)

function normField(f, common) {
  const isArray = f.type.startsWith('[]')
  const base = isArray ? f.type.slice(2) : f.type
  const out = {
    name: camel(f.name),
    type: PRIMITIVES.has(base) ? base : 'struct',
    versions: range(f.versions ?? f.taggedVersions),
  }
  if (isArray) out.array = true
  const nullable = range(f.nullableVersions)
  if (nullable) out.nullable = nullable
  // FieldSpec: a tagged field without "versions" exists in its taggedVersions
  const tagged = range(f.taggedVersions)
  if (tagged) {
    out.tagged = tagged
    out.tag = Number(f.tag)
  } // some old definitions quote the tag
  // FieldSpec reads a JSON null default as no default at all (""), unlike the string "null"
  if (f.default !== undefined && f.default !== null) out.default = f.default
  if (out.type === 'struct') {
    const fields = f.fields ?? common.get(base)
    if (fields === undefined) throw new Error(`struct ${base} has no fields`)
    out.fields = fields.map((x) => normField(x, common))
  }
  return out
}

function normMessage(m) {
  const common = new Map((m.commonStructs ?? []).map((s) => [s.name, s.fields]))
  const out = {
    name: m.name,
    kind: m.type,
    validVersions: range(m.validVersions),
    flexibleVersions: range(m.flexibleVersions),
  }
  if (m.apiKey !== undefined) out.apiKey = m.apiKey
  out.fields = m.fields.map((f) => normField(f, common))
  return out
}

function loadRelease(version, topic) {
  const msgs = {}
  for (const [artifact, prefix, filter] of TOPICS[topic]) {
    const jar = jarPath(artifact, version)
    if (jar === null) return null
    if (!fs.existsSync(jar)) continue // the artifact did not exist yet in this release
    for (const m of jarJson(jar, prefix, filter)) msgs[m.name] = normMessage(m)
  }
  return msgs
}

/** a struct's or message's field list (what the tables repeat: the same sub-structure in many messages) */
const isFieldList = (v) =>
  Array.isArray(v) && v.length >= 2 && v.every((f) => f !== null && typeof f === 'object' && 'name' in f && 'type' in f)

/**
 * Field lists that occur more than once in `defs` (struct bodies such as a topic-partitions list, whole
 * key messages) are written once, as constants, in the order they complete (inner lists first), and
 * referenced: each definition is one line and repeats none of another's.
 */
function sharedLists(defs) {
  const uses = new Map()
  const walk = (v) => {
    if (Array.isArray(v)) {
      v.forEach(walk)
      if (isFieldList(v)) {
        const k = JSON.stringify(v)
        uses.set(k, (uses.get(k) ?? 0) + 1)
      }
    } else if (v !== null && typeof v === 'object') Object.values(v).forEach(walk)
  }
  defs.forEach(walk)
  const shared = new Map()
  for (const [k, n] of uses) if (n > 1) shared.set(k, `S${shared.size}`)
  return shared
}

function serialize(v, shared, self) {
  if (isFieldList(v)) {
    const name = shared.get(JSON.stringify(v))
    if (name !== undefined && name !== self) return name
  }
  if (Array.isArray(v)) return `[${v.map((x) => serialize(x, shared)).join(',')}]`
  if (v !== null && typeof v === 'object')
    return `{${Object.entries(v)
      .map(([k, x]) => `${JSON.stringify(k)}:${serialize(x, shared)}`)
      .join(',')}}`
  return JSON.stringify(v)
}

function render(topic, latest, overlays) {
  // an older definition shared by several releases is written once (OLDER[i]) and referenced
  const older = []
  const index = new Map()
  const ref = (def) => {
    if (def === null) return 'null'
    const key = JSON.stringify(def)
    if (!index.has(key)) {
      index.set(key, older.length)
      older.push(def)
    }
    return `OLDER[${index.get(key)}]!`
  }
  const overlayText = `{${Object.entries(overlays)
    .map(
      ([rel, diff]) =>
        `\n  ${JSON.stringify(rel)}: {${Object.entries(diff)
          .map(([name, def]) => `${JSON.stringify(name)}: ${ref(def)}`)
          .join(', ')}}`,
    )
    .join(',')}\n}`
  const shared = sharedLists([...Object.values(latest), ...older])
  // constants in completion order: a list's inner shared lists are declared before it (the map's order)
  const constants = [...shared].map(
    ([k, name]) => `const ${name}: readonly FieldDef[] = ${serialize(JSON.parse(k), shared, name)}`,
  )
  const lines = [
    `// GENERATED by scripts/gen-schemas.mjs from Kafka ${LATEST}'s JSON message definitions (jar resources of`,
    `// ${[...new Set(TOPICS[topic].map((t) => t[0]))].join(', ')}); older releases as overlays. Do not edit: run \`node scripts/gen-schemas.mjs\`.`,
    `import type { ${constants.length > 0 ? 'FieldDef, ' : ''}MessageDef } from '../types.js'`,
    '',
    ...(constants.length > 0
      ? [
          '// field lists that several definitions share (struct bodies, key messages), each written once',
          ...constants,
          '',
        ]
      : []),
    `/** every message of Kafka ${LATEST}, by name */`,
    `export const MESSAGES: Readonly<Record<string, MessageDef>> = {${Object.entries(latest)
      .map(([name, def]) => `\n  ${JSON.stringify(name)}: ${serialize(def, shared)}`)
      .join(',')}\n}`,
    '',
    '/** definitions of older releases that differ from the newest */',
    `const OLDER: readonly MessageDef[] = [${older.map((def) => `\n  ${serialize(def, shared)}`).join(',')}\n]`,
    '',
    '/** per release: the messages whose definition differs from the newest (null: absent in that release) */',
    `export const RELEASE_OVERLAYS: Readonly<Record<string, Readonly<Record<string, MessageDef | null>>>> = ${overlayText}`,
    '',
  ]
  return lines.join('\n')
}

let missing = 0
let stale = 0
for (const topic of Object.keys(TOPICS)) {
  const latest = loadRelease(LATEST, topic)
  if (latest === null) {
    missing++
    continue
  }
  const overlays = {}
  let incomplete = false
  for (const [label, version] of Object.entries(RELEASES)) {
    if (version === LATEST) continue
    const rel = loadRelease(version, topic)
    if (rel === null) {
      missing++
      incomplete = true
      continue
    }
    const diff = {}
    for (const name of new Set([...Object.keys(latest), ...Object.keys(rel)])) {
      const a = JSON.stringify(latest[name] ?? null)
      const b = JSON.stringify(rel[name] ?? null)
      if (a !== b) diff[name] = rel[name] ?? null
    }
    if (Object.keys(diff).length > 0) overlays[label] = diff
  }
  if (incomplete) continue // without every release the overlays cannot be judged (or written)
  const file = path.join(OUT, `${topic}-messages.ts`)
  const text = render(topic, latest, overlays)
  if (check) {
    if (!fs.existsSync(file) || fs.readFileSync(file, 'utf8') !== text) {
      console.error(`stale: ${path.relative(ROOT, file)}`)
      stale++
    }
  } else {
    fs.mkdirSync(OUT, { recursive: true })
    fs.writeFileSync(file, text)
    console.log(
      `wrote ${path.relative(ROOT, file)} (${Object.keys(latest).length} messages, overlays for ${Object.keys(overlays).join(', ') || 'none'})`,
    )
  }
}
if (missing > 0) {
  console.log(
    `skipped: ${missing} jar sets not in ${path.relative(ROOT, CACHE)} (run without --check, or TSDUMP_GEN_FETCH=1)`,
  )
  process.exit(check ? 3 : 1)
}
process.exit(stale > 0 ? 1 : 0)
