// The topic configs the cleaner and retention rules read, each with where its value came from. Kafka resolves a
// topic config from the topic's own dynamic config, else the broker's synonym (LogConfig / ServerTopicConfigSynonyms:
// dynamic per-broker, dynamic cluster default, static server.properties), else its default. Offline, the metadata log
// gives the dynamic configs; --config stands for what it lacks (server.properties); the rest is Kafka's default.
import { brokerTimeSynonyms } from './config-flags.js'

export type ConfigSource =
  | 'DYNAMIC_TOPIC_CONFIG'
  | 'DYNAMIC_DEFAULT_BROKER_CONFIG'
  | '--config'
  | 'INTERNAL_TOPIC_DEFAULT'
  | 'DEFAULT_CONFIG'
  | 'CLEANER_OFFSET_CHECKPOINT'
  | 'UNKNOWN'

export interface ConfigValue {
  value: string
  source: ConfigSource
}

interface ConfigDef {
  name: string
  broker: string
  value: string
}

// TopicConfig names, their broker synonyms (ServerLogConfigs / CleanerConfig) and defaults, Kafka 4.x
export const CLEANUP_CONFIGS: readonly ConfigDef[] = [
  { name: 'cleanup.policy', broker: 'log.cleanup.policy', value: 'delete' },
  { name: 'min.cleanable.dirty.ratio', broker: 'log.cleaner.min.cleanable.ratio', value: '0.5' },
  { name: 'min.compaction.lag.ms', broker: 'log.cleaner.min.compaction.lag.ms', value: '0' },
  { name: 'max.compaction.lag.ms', broker: 'log.cleaner.max.compaction.lag.ms', value: '9223372036854775807' },
  { name: 'delete.retention.ms', broker: 'log.cleaner.delete.retention.ms', value: '86400000' },
  { name: 'retention.ms', broker: 'log.retention.ms', value: '604800000' },
  { name: 'retention.bytes', broker: 'log.retention.bytes', value: '-1' },
  { name: 'segment.ms', broker: 'log.roll.ms', value: '604800000' },
  { name: 'segment.bytes', broker: 'log.segment.bytes', value: '1073741824' },
  // broker-only: the cleaner's offset map (CleanerConfig)
  { name: 'log.cleaner.dedupe.buffer.size', broker: 'log.cleaner.dedupe.buffer.size', value: '134217728' },
  { name: 'log.cleaner.threads', broker: 'log.cleaner.threads', value: '1' },
  { name: 'log.cleaner.io.buffer.load.factor', broker: 'log.cleaner.io.buffer.load.factor', value: '0.9' },
  // tiered storage (LogConfig, KIP-405): -2 takes retention.ms / retention.bytes (analysis/cleanup/remote-retention.ts)
  { name: 'remote.storage.enable', broker: 'remote.storage.enable', value: 'false' },
  { name: 'local.retention.ms', broker: 'log.local.retention.ms', value: '-2' },
  { name: 'local.retention.bytes', broker: 'log.local.retention.bytes', value: '-2' },
]

// the configs the coordinators create their topics with (GroupCoordinatorService.groupMetadataTopicConfigs,
// TransactionStateManager.transactionTopicConfigs): compacted, 100 MiB segments
const INTERNAL: Record<string, Record<string, string>> = {
  __consumer_offsets: { 'cleanup.policy': 'compact', 'segment.bytes': '104857600' },
  __transaction_state: { 'cleanup.policy': 'compact', 'segment.bytes': '104857600' },
}

export interface ConfigInputs {
  /** the topic's dynamic configs from the metadata log */
  topic?: ReadonlyMap<string, string>
  /** the cluster-wide dynamic broker default from the metadata log */
  brokerDefault?: ReadonlyMap<string, string>
  /** --config key=value (topic or broker names) */
  flags?: ReadonlyMap<string, string>
  /** a metadata log was read: a config it does not give has Kafka's default (server.properties aside) */
  metadataRead?: boolean
  /** the log dir's cleaner-offset-checkpoint lists the partition */
  inCleanerCheckpoint?: boolean
}

export function resolveConfigs(topic: string | null, inp: ConfigInputs): Record<string, ConfigValue> {
  const out: Record<string, ConfigValue> = {}
  const synonyms = inp.flags === undefined ? new Map<string, string>() : brokerTimeSynonyms(inp.flags)
  for (const d of CLEANUP_CONFIGS) {
    const t = inp.topic?.get(d.name)
    const b = inp.brokerDefault?.get(d.broker)
    const f = inp.flags?.get(d.name) ?? synonyms.get(d.broker) ?? inp.flags?.get(d.broker)
    const internal = topic === null ? undefined : INTERNAL[topic]?.[d.name]
    out[d.name] =
      t !== undefined
        ? { value: t, source: 'DYNAMIC_TOPIC_CONFIG' }
        : internal !== undefined
          ? { value: internal, source: 'INTERNAL_TOPIC_DEFAULT' }
          : b !== undefined
            ? { value: b, source: 'DYNAMIC_DEFAULT_BROKER_CONFIG' }
            : f !== undefined
              ? { value: f, source: '--config' }
              : { value: d.value, source: 'DEFAULT_CONFIG' }
  }
  if (out['cleanup.policy']!.source === 'DEFAULT_CONFIG') out['cleanup.policy'] = policyWithoutConfig(inp)
  return out
}

/**
 * cleanup.policy where no config gives it. Only a compacting cleaner writes a partition into
 * cleaner-offset-checkpoint (LogCleanerManager.updateCheckpoints after Cleaner.clean; grabFilthiestCompactedLog
 * picks only logs whose config has compact), so a listed partition was compacted. Without the metadata log the
 * topic's own config is not known: the policy is unknown, not Kafka's default.
 */
export function policyWithoutConfig(inp: Pick<ConfigInputs, 'metadataRead' | 'inCleanerCheckpoint'>): ConfigValue {
  if (inp.inCleanerCheckpoint === true) return { value: 'compact', source: 'CLEANER_OFFSET_CHECKPOINT' }
  return inp.metadataRead === true
    ? { value: 'delete', source: 'DEFAULT_CONFIG' }
    : { value: 'unknown', source: 'UNKNOWN' }
}

/** the numbers the rules use */
export interface CleanupSettings {
  compact: boolean
  delete: boolean
  minCleanableRatio: number
  minCompactionLagMs: bigint
  maxCompactionLagMs: bigint
  deleteRetentionMs: bigint
  retentionMs: bigint
  retentionBytes: bigint
}

const int = (v: string): bigint => {
  try {
    return BigInt(v.trim())
  } catch {
    return -1n
  }
}

export function settingsOf(c: Record<string, ConfigValue>): CleanupSettings {
  const policy = c['cleanup.policy']!.value.split(',').map((s) => s.trim().toLowerCase())
  return {
    compact: policy.includes('compact'),
    delete: policy.includes('delete'),
    minCleanableRatio: Number(c['min.cleanable.dirty.ratio']!.value),
    minCompactionLagMs: int(c['min.compaction.lag.ms']!.value),
    maxCompactionLagMs: int(c['max.compaction.lag.ms']!.value),
    deleteRetentionMs: int(c['delete.retention.ms']!.value),
    retentionMs: int(c['retention.ms']!.value),
    retentionBytes: int(c['retention.bytes']!.value),
  }
}

/**
 * Kafka's maxDesiredMapSize: LogCleaner gives each cleaner thread a SkimpyOffsetMap of dedupe.buffer.size / threads
 * bytes (at most Int.MaxValue), 24 bytes a slot (MD5 + offset), filled to the load factor (Cleaner.buildOffsetMapForSegment).
 */
export function offsetMapEntries(c: Record<string, ConfigValue>): number {
  const bytes = Number(c['log.cleaner.dedupe.buffer.size']!.value)
  const threads = Math.max(1, Number(c['log.cleaner.threads']!.value))
  const memory = Math.min(Math.floor(bytes / threads), 2147483647)
  return Math.floor(Math.floor(memory / 24) * Number(c['log.cleaner.io.buffer.load.factor']!.value))
}
