// What a KRaft metadata log tells of the cluster's Kafka release, and what that means for
// `kafka-transactions.sh forceTerminateTransaction`.
// The controller writes the finalized metadata.version as a FeatureLevelRecord (name "metadata.version") when the
// cluster is formatted and at every upgrade; the level names a release in org.apache.kafka.server.common.MetadataVersion
// (level 21 = 3.9-IV0, 26 = 4.1-IV0, 33 = 4.4-IV2). It is a lower bound of the brokers' software: a cluster upgraded
// to newer binaries keeps its older metadata.version until the operator finalizes the new one.
// forceTerminateTransaction (KIP-939) is a command of kafka-transactions.sh from Kafka 4.1 on
// (TransactionsCommand.ForceTerminateTransactionsCommand); it calls Admin.forceTerminateTransaction, which is
// Admin.fenceProducers of the one id (KafkaAdminClient, FenceProducersHandler): an InitProducerId for the
// transactional id, which bumps its epoch and aborts its open transaction. Brokers have served that request since
// transactions exist, so the tool's release matters, not the broker's (a 4.4.0 kafka-transactions.sh ended an open
// transaction on a 3.9.1 broker); Kafka 4.x clients talk to brokers 2.1 and newer (KIP-896).

/** MetadataVersion's release of each feature level from 1 (3.0-IV1) on; index = level - 1 */
const RELEASES = [
  '3.0-IV1',
  '3.1-IV0',
  '3.2-IV0',
  '3.3-IV0',
  '3.3-IV1',
  '3.3-IV2',
  '3.3-IV3',
  '3.4-IV0',
  '3.5-IV0',
  '3.5-IV1',
  '3.5-IV2',
  '3.6-IV0',
  '3.6-IV1',
  '3.6-IV2',
  '3.7-IV0',
  '3.7-IV1',
  '3.7-IV2',
  '3.7-IV3',
  '3.7-IV4',
  '3.8-IV0',
  '3.9-IV0',
  '4.0-IV0',
  '4.0-IV1',
  '4.0-IV2',
  '4.0-IV3',
  '4.1-IV0',
  '4.1-IV1',
  '4.2-IV0',
  '4.2-IV1',
  '4.3-IV0',
  '4.4-IV0',
  '4.4-IV1',
  '4.4-IV2',
  '4.5-IV0',
]

/** the feature level of MetadataVersion.IBP_4_1_IV0 */
export const METADATA_VERSION_4_1 = 26

/** the release a metadata.version feature level names ("4.1-IV0"); null for a level this table does not know */
export function metadataVersionRelease(level: number): string | null {
  return RELEASES[level - 1] ?? null
}

export interface ForceTerminateAdvice {
  /** the command, when the transactional id is known */
  command: string | null
  /** whether the cluster's own release has the command: true at metadata.version 4.1+, null when not told */
  clusterHasIt: boolean | null
  /** the release the metadata log names, null without one among the paths */
  metadataVersion: string | null
  /** one line: which kafka-transactions.sh runs it */
  note: string
}

/** forceTerminateTransaction for an open transaction of `transactionalId`, given the metadata.version level read (null: none) */
export function forceTerminateAdvice(
  transactionalId: string | null,
  bootstrap: string,
  level: number | null,
): ForceTerminateAdvice {
  const command =
    transactionalId === null
      ? null
      : `kafka-transactions.sh --bootstrap-server ${bootstrap} forceTerminateTransaction --transactionalId ${transactionalId}`
  const release = level === null ? null : (metadataVersionRelease(level) ?? `level ${level}`)
  if (level !== null && level >= METADATA_VERSION_4_1) {
    return {
      command,
      clusterHasIt: true,
      metadataVersion: release,
      note: `metadata.version ${release}: the cluster's kafka-transactions.sh has it (Kafka 4.1+)`,
    }
  }
  const why =
    level === null
      ? "no metadata log among the paths tells the cluster's release"
      : `metadata.version ${release}: the cluster's own tools may be older`
  return {
    command,
    clusterHasIt: null,
    metadataVersion: release,
    note: `needs kafka-transactions.sh of Kafka 4.1+, which any broker serves; ${why}`,
  }
}
