// The dynamic configs a KRaft metadata log holds (__cluster_metadata ConfigRecord, the controller's
// ConfigurationControlManager state): topic configs by topic name, broker configs by node id ('' = the
// cluster-wide default). A snapshot (.checkpoint) is read first, then the log, each record replacing the
// previous value of its (resource, name); a null value removes it. The finalized feature levels
// (FeatureLevelRecord: metadata.version, transaction.version ...) are taken in the same pass, the newest per name.
import type { PartitionDir } from '../io/discover.js'
import type { MetadataConfigs } from './metadata-log.js'
import { readMetadataLog } from './metadata-log.js'

export type { MetadataConfigs } from './metadata-log.js'

/** The metadata log's dynamic configs and feature levels (its one read gives the partition counts too: metadata-log.ts). */
export function readMetadataConfigs(dir: PartitionDir): MetadataConfigs {
  return readMetadataLog(dir).configs
}
