// `cleanup --config` cases and Kafka 4.4.0's answers to them, as test/broker/kafka-config-oracle.java printed them
// (java -cp '.cache/kafka-4.4.0/lib/*' test/broker/kafka-config-oracle.java <case>...; ConfigDef.parseType and the
// key's validator from LogConfig / AbstractKafkaConfig). test/broker/config-flags-oracle.test.ts asks Kafka again.
export type KafkaAnswer = 'OK' | 'INVALID' | 'UNKNOWN'

export const CONFIG_CASES: ReadonlyArray<[string, KafkaAnswer]> = [
  ['cleanup.policy=compact', 'OK'],
  ['cleanup.policy=compact, delete', 'OK'],
  ['cleanup.policy=', 'OK'],
  ['cleanup.policy=compcat', 'INVALID'],
  ['cleanup.policy=delete,delete', 'INVALID'],
  ['min.cleanable.dirty.ratio=1.5', 'INVALID'],
  ['min.cleanable.dirty.ratio=0.01', 'OK'],
  ['min.cleanable.dirty.ratio= 0.5 ', 'OK'],
  ['min.cleanable.dirty.ratio=1e-1', 'OK'],
  ['segment.bytes=1048575', 'INVALID'],
  ['segment.bytes=2147483648', 'INVALID'],
  ['retention.ms=-2', 'INVALID'],
  ['retention.ms=-1', 'OK'],
  ['log.retention.hours=abc', 'INVALID'],
  ['log.retention.hours=-5', 'OK'],
  ['log.roll.hours=0', 'INVALID'],
  ['foo.bar=1', 'UNKNOWN'],
]

/** broker properties -> KafkaConfig.logRetentionTimeMillis and logRollTimeMillis */
export const SYNONYM_CASES: ReadonlyArray<[string, { retention: string; roll: string }]> = [
  ['log.retention.hours=5,log.retention.minutes=7', { retention: '420000', roll: '604800000' }],
  ['log.retention.hours=5', { retention: '18000000', roll: '604800000' }],
  ['log.retention.ms=-9,log.retention.hours=5', { retention: '-1', roll: '604800000' }],
  ['log.roll.hours=2', { retention: '604800000', roll: '7200000' }],
  ['log.roll.hours=2,log.roll.ms=100', { retention: '604800000', roll: '100' }],
]
