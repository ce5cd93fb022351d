// The dynamic configs a KRaft metadata log holds (__cluster_metadata ConfigRecord, the controller's
// ConfigurationControlManager state): topic configs by topic name, broker configs by node id ('' = the
// cluster-wide default). A snapshot (.checkpoint) is read first, then the log, each record replacing the
// previous value of its (resource, name); a null value removes it.
import { FindingList } from '../analysis/finding-list.js'
import { finding } from '../analysis/findings.js'
import { decodeFinding } from '../analysis/log-findings.js'
import { DecodeError } from '../decode/errors.js'
import { DEFAULT_WINDOW } from '../decode/frame-scanner.js'
import { readLog } from '../decode/log-reader.js'
import { batchRecords } from '../decode/streamed-batch.js'
import { decodeMetadataRecord } from '../decode/topics/cluster-metadata.js'
import type { PartitionDir } from '../io/discover.js'
import { describeFsError } from '../io/discover.js'
import { FileSource } from '../io/file-source.js'
import { InputError } from '../io/input-error.js'

export interface MetadataConfigs {
  /** the metadata partition directory read */
  path: string
  topics: Map<string, Map<string, string>>
  brokers: Map<string, Map<string, string>>
  findings: FindingList
}

// ConfigResource.Type ids (org.apache.kafka.common.config.ConfigResource)
const TOPIC = 2
const BROKER = 4

export function readMetadataConfigs (dir: PartitionDir): MetadataConfigs {
  const out: MetadataConfigs = { path: dir.path, topics: new Map(), brokers: new Map(), findings: new FindingList() }
  // the newest snapshot holds the state up to its offset; the log then replays on top of it
  const snaps = dir.files.filter((f) => f.kind === 'checkpoint')
  const files = [...snaps.slice(-1), ...dir.files.filter((f) => f.kind === 'log')]
  for (const f of files) {
    let src: FileSource
    try { src = new FileSource(f.path) } catch (e) {
      out.findings.push(finding('UNREADABLE', describeFsError(e), { file: f.path }))
      continue
    }
    try {
      for (const ev of readLog(src, { verifyCrc: false })) {
        if (ev.kind !== 'batch' || ev.header.isControl) continue
        try {
          for (const rec of batchRecords(ev.header, ev.bytes, ev.complete, src, { window: DEFAULT_WINDOW })) {
            if (rec.value === null) continue
            const m = decodeMetadataRecord(rec.value, rec.filePosition)
            if (m.type !== 'CONFIG_RECORD') continue
            const d = m.data as { resourceType: number, resourceName: string, name: string, value: string | null }
            const table = d.resourceType === TOPIC ? out.topics : d.resourceType === BROKER ? out.brokers : null
            if (table === null) continue
            let entry = table.get(d.resourceName)
            if (entry === undefined) { entry = new Map(); table.set(d.resourceName, entry) }
            if (d.value === null) entry.delete(d.name)
            else entry.set(d.name, d.value)
          }
        } catch (e) {
          if (e instanceof DecodeError) { out.findings.push(decodeFinding(e, f.path)); continue }
          out.findings.push(finding('BAD_INTERNAL_RECORD', `metadata record not decoded: ${(e as Error).message}`, { file: f.path, position: ev.position }))
        }
      }
    } catch (e) {
      if (!(e instanceof InputError)) throw e
      out.findings.push(finding(e.code, e.message, { file: f.path, position: e.position }))
    } finally { src.close() }
  }
  return out
}
