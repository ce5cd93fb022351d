// The dynamic configs a KRaft metadata log holds (__cluster_metadata ConfigRecord, the controller's
// ConfigurationControlManager state): topic configs by topic name, broker configs by node id ('' = the
// cluster-wide default). A snapshot (.checkpoint) is read first, then the log, each record replacing the
// previous value of its (resource, name); a null value removes it. The finalized feature levels
// (FeatureLevelRecord: metadata.version, transaction.version ...) are taken in the same pass, the newest per name.
import { forEachInternalRecord } from './internal-records.js'
import { FindingList } from '../analysis/finding-list.js'
import type { LostRecords } from '../analysis/lost-records.js'
import { finding } from '../analysis/findings.js'
import { decodeMetadataRecord } from '../decode/topics/cluster-metadata.js'
import type { PartitionDir } from '../io/discover.js'

export interface MetadataConfigs {
  /** the metadata partition directory read */
  path: string
  topics: Map<string, Map<string, string>>
  brokers: Map<string, Map<string, string>>
  /** feature name -> its newest finalized level (FeatureLevelRecord; level 0 removes a feature other than metadata.version) */
  features: Map<string, number>
  findings: FindingList
  /** where records could not be read: a ConfigRecord may be in those bytes, so no config is known (analysis/lost-records.ts) */
  lost: LostRecords[]
}

// ConfigResource.Type ids (org.apache.kafka.common.config.ConfigResource)
const TOPIC = 2
const BROKER = 4

export function readMetadataConfigs(dir: PartitionDir): MetadataConfigs {
  const out: MetadataConfigs = {
    path: dir.path,
    topics: new Map(),
    brokers: new Map(),
    features: new Map(),
    findings: new FindingList(),
    lost: [],
  }
  // the newest snapshot holds the state up to its offset; the log then replays on top of it
  const snaps = dir.files.filter((f) => f.kind === 'checkpoint')
  const files = [...snaps.slice(-1), ...dir.files.filter((f) => f.kind === 'log')]
  out.lost = forEachInternalRecord(
    files,
    out.findings,
    (rec, h, f) => {
      if (rec.value === null) return
      const m = decodeMetadataRecord(rec.value, rec.filePosition)
      if (m.type === 'FEATURE_LEVEL_RECORD' && !m.unknownVersion) {
        const d = m.data as { name: string; featureLevel: number }
        out.features.set(d.name, d.featureLevel)
        return
      }
      if (m.type !== 'CONFIG_RECORD') return
      // a version read past its definition may lack the fields (decodeFramedRecord reads on with the ones it knows)
      if (m.unknownVersion) {
        out.findings.push(
          finding(
            'BAD_INTERNAL_RECORD',
            `ConfigRecord v${m.version} at offset ${rec.offset} is not defined in this release: not applied`,
            { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : h.position },
          ),
        )
        return
      }
      const d = m.data as { resourceType: number; resourceName: string; name: string; value: string | null }
      const table = d.resourceType === TOPIC ? out.topics : d.resourceType === BROKER ? out.brokers : null
      if (table === null) return
      let entry = table.get(d.resourceName)
      if (entry === undefined) {
        entry = new Map()
        table.set(d.resourceName, entry)
      }
      if (d.value === null) entry.delete(d.name)
      else entry.set(d.name, d.value)
    },
    (e, f, at) =>
      finding('BAD_INTERNAL_RECORD', `metadata record not decoded: ${(e as Error).message}`, {
        file: f.path,
        position: at,
      }),
  )
  return out
}
