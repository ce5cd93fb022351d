// The finalized metadata.version of the KRaft metadata log among (or beside) the paths: the newest
// FeatureLevelRecord named metadata.version (read with the dynamic configs, scan/metadata-configs.ts);
// analysis/broker-release.ts says which release it names and what that means.
import type { MetadataConfigs } from './metadata-configs.js'

export const METADATA_VERSION_FEATURE = 'metadata.version'

/** the metadata.version feature level a metadata log's records finalized; null without a log or a record of it */
export function metadataVersionOf(configs: MetadataConfigs | null): number | null {
  return configs?.features.get(METADATA_VERSION_FEATURE) ?? null
}
