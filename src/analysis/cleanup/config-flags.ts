// `cleanup --config key=value`: each key and value checked as Kafka 4.4 checks them (ConfigDef.parseType, then the
// key's validator), and the broker synonyms resolved to the topic configs as KafkaConfig and LogConfig resolve them.
// The definitions are those of LogConfig (topic) and ServerLogConfigs / CleanerConfig (broker) for the configs the
// cleaner and retention rules read.

type ConfigType = 'LIST' | 'DOUBLE' | 'LONG' | 'INT' | 'BOOLEAN'
interface ConfigDefinition {
  type: ConfigType
  atLeast?: number
  atMost?: number
  validValues?: readonly string[]
}

const POLICY = { type: 'LIST', validValues: ['compact', 'delete'] } as const
const RATIO = { type: 'DOUBLE', atLeast: 0, atMost: 1 } as const
const SEGMENT_BYTES = { type: 'INT', atLeast: 1048576 } as const // KIP-1030 (4.0): at least 1 MiB

/** the --config keys cleanup reads, with Kafka's type and validator of each */
export const CONFIG_DEFINITIONS: Readonly<Record<string, ConfigDefinition>> = {
  'cleanup.policy': POLICY,
  'min.cleanable.dirty.ratio': RATIO,
  'min.compaction.lag.ms': { type: 'LONG', atLeast: 0 },
  'max.compaction.lag.ms': { type: 'LONG', atLeast: 1 },
  'delete.retention.ms': { type: 'LONG', atLeast: 0 },
  'retention.ms': { type: 'LONG', atLeast: -1 },
  'retention.bytes': { type: 'LONG' },
  'segment.ms': { type: 'LONG', atLeast: 1 },
  'segment.bytes': SEGMENT_BYTES,
  'log.cleanup.policy': POLICY,
  'log.cleaner.min.cleanable.ratio': RATIO,
  'log.cleaner.min.compaction.lag.ms': { type: 'LONG', atLeast: 0 },
  'log.cleaner.max.compaction.lag.ms': { type: 'LONG', atLeast: 1 },
  'log.cleaner.delete.retention.ms': { type: 'LONG', atLeast: 0 },
  'log.retention.ms': { type: 'LONG' },
  'log.retention.minutes': { type: 'INT' },
  'log.retention.hours': { type: 'INT' },
  'log.retention.bytes': { type: 'LONG' },
  'log.roll.ms': { type: 'LONG' },
  'log.roll.hours': { type: 'INT', atLeast: 1 },
  'log.segment.bytes': SEGMENT_BYTES,
  'log.cleaner.dedupe.buffer.size': { type: 'LONG' },
  'log.cleaner.threads': { type: 'INT', atLeast: 0 },
  'log.cleaner.io.buffer.load.factor': { type: 'DOUBLE' },
  // tiered storage (LogConfig / RemoteLogManagerConfig)
  'remote.storage.enable': { type: 'BOOLEAN' },
  'local.retention.ms': { type: 'LONG', atLeast: -2 },
  'local.retention.bytes': { type: 'LONG', atLeast: -2 },
  'log.local.retention.ms': { type: 'LONG', atLeast: -2 },
  'log.local.retention.bytes': { type: 'LONG', atLeast: -2 },
}

const LIMITS = { LONG: [-(2n ** 63n), 2n ** 63n - 1n], INT: [-(2n ** 31n), 2n ** 31n - 1n] } as const

/** what the key accepts, in the words of Kafka's config docs (type and valid values) */
function accepted(d: ConfigDefinition): string {
  const range =
    d.validValues !== undefined
      ? ` of [${d.validValues.join(', ')}]`
      : d.atLeast !== undefined
        ? d.atMost !== undefined
          ? ` in [${d.atLeast},...,${d.atMost}]`
          : ` in [${d.atLeast},...]`
        : ''
  return `${d.type === 'LIST' ? 'a comma-separated list, each at most once,' : d.type === 'DOUBLE' ? 'a number' : d.type === 'INT' ? 'a 32-bit integer' : 'a 64-bit integer'}${range}`
}

/**
 * null when Kafka accepts `value` for `key` (ConfigDef.parseType: trimmed, Long/Integer.parseInt, Double.parseDouble,
 * a list split at commas; then Range.between / Range.atLeast / ValidList.in), else why not, naming the key and what
 * Kafka accepts.
 */
export function checkConfigFlag(key: string, value: string): string | null {
  const d = CONFIG_DEFINITIONS[key]
  if (d === undefined)
    return `--config ${key}: not a topic or broker config cleanup reads (unknown to Kafka, or without effect on the cleaner and retention); it takes ${Object.keys(CONFIG_DEFINITIONS).join(', ')}`
  const bad = `--config ${key}=${value}: Kafka accepts ${accepted(d)}`
  const v = value.trim()
  if (d.type === 'LIST') {
    // ValidList: each item one of the valid values, none twice; an empty list is valid (neither policy)
    const items = v === '' ? [] : v.split(/\s*,\s*/)
    return items.some((x) => !d.validValues!.includes(x)) || new Set(items).size !== items.length ? bad : null
  }
  // ConfigDef.parseType BOOLEAN: true or false, any case
  if (d.type === 'BOOLEAN') return /^(true|false)$/i.test(v) ? null : bad
  let n: number
  if (d.type === 'DOUBLE') {
    // Double.parseDouble's decimal forms (hexadecimal and d/f suffixes aside)
    if (!/^[+-]?(\d+\.?\d*|\.\d+)([eE][+-]?\d+)?$/.test(v)) return bad
    n = Number(v)
  } else {
    if (!/^[+-]?\d+$/.test(v)) return bad
    const b = BigInt(v)
    const [lo, hi] = LIMITS[d.type]
    if (b < lo || b > hi) return bad
    n = Number(b)
  }
  if ((d.atLeast !== undefined && n < d.atLeast) || (d.atMost !== undefined && n > d.atMost)) return bad
  return null
}

/** every flag checked: the first problem, or null */
export function checkConfigFlags(flags: ReadonlyMap<string, string>): string | null {
  for (const [k, v] of flags) {
    const e = checkConfigFlag(k, v)
    if (e !== null) return e
  }
  return null
}

const MS_PER_MINUTE = 60_000n
const MS_PER_HOUR = 3_600_000n

/**
 * The broker's time synonyms as the topic configs they stand for (KafkaConfig / AbstractKafkaConfig):
 * logRetentionTimeMillis = log.retention.ms, else log.retention.minutes x 60000, else log.retention.hours x 3600000,
 * and -1 when negative; logRollTimeMillis = log.roll.ms, else log.roll.hours x 3600000. The other broker synonyms
 * are one key each and are read as they are (configs.ts).
 */
export function brokerTimeSynonyms(flags: ReadonlyMap<string, string>): Map<string, string> {
  const out = new Map<string, string>()
  const ms = flags.get('log.retention.ms')
  const minutes = flags.get('log.retention.minutes')
  const hours = flags.get('log.retention.hours')
  if (ms !== undefined || minutes !== undefined || hours !== undefined) {
    const v =
      ms !== undefined
        ? BigInt(ms.trim())
        : minutes !== undefined
          ? BigInt(minutes.trim()) * MS_PER_MINUTE
          : BigInt(hours!.trim()) * MS_PER_HOUR
    out.set('log.retention.ms', String(v < 0n ? -1n : v))
  }
  const rollMs = flags.get('log.roll.ms')
  const rollHours = flags.get('log.roll.hours')
  if (rollMs !== undefined || rollHours !== undefined)
    out.set('log.roll.ms', rollMs !== undefined ? rollMs.trim() : String(BigInt(rollHours!.trim()) * MS_PER_HOUR))
  return out
}
