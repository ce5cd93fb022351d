// The KRaft metadata log (__cluster_metadata) read in one pass for everything tsdump asks of it: the dynamic configs
// and finalized feature levels (scan/metadata-configs.ts) and the topics' partition counts
// (scan/metadata-partitions.ts). The newest snapshot (.checkpoint) is read first, then the log, each record applied
// in turn, as the controller replays them (QuorumController's snapshot load, then its log). The log is read either as
// a tap on the partition scan's own frames (the pass that gives the partition's facts: log end, findings) or alone
// when no partition scan reads it, so that a command reads each of its files once.
import { dataBatchTap, forEachInternalRecord, loseAt, visitBatch } from './internal-records.js'
import type { Frames } from './internal-records.js'
import { FindingList } from '../analysis/finding-list.js'
import type { Finding } from '../analysis/findings.js'
import { finding } from '../analysis/findings.js'
import type { LostRecords } from '../analysis/lost-records.js'
import type { BatchHeader } from '../decode/batch-header.js'
import type { V2Batch } from '../decode/log-reader.js'
import { readFrame } from '../decode/log-reader.js'
import type { KafkaRecord } from '../decode/records.js'
import type { SegmentSource } from '../decode/segment-source.js'
import { decodeMetadataRecord } from '../decode/topics/cluster-metadata.js'
import type { KafkaFile, PartitionDir } from '../io/discover.js'

/** the dynamic configs and feature levels (scan/metadata-configs.ts) */
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

/** the topics' partition counts (scan/metadata-partitions.ts) */
export interface MetadataPartitionCounts {
  /** the metadata partition directory read */
  path: string
  /** topic name -> its partition count */
  counts: Map<string, number>
  findings: FindingList
}

/** what one read of the metadata log gave */
export interface MetadataLog {
  configs: MetadataConfigs
  counts: MetadataPartitionCounts
}

// ConfigResource.Type ids (org.apache.kafka.common.config.ConfigResource)
const TOPIC = 2
const BROKER = 4

/** the codes an I/O error of a segment gives in the partition scan (InputError): records past it are lost */
const IO_CODES = new Set<string>(['UNREADABLE', 'FILE_CHANGED', 'FILE_TOO_LARGE', 'NOT_REGULAR_FILE'])

/** The metadata log's configs and partition counts, its files read alone. */
export function readMetadataLog(dir: PartitionDir): MetadataLog {
  const r = new MetadataLogReader(dir)
  r.readAlone()
  return r.finish()
}

export class MetadataLogReader {
  private readonly findings = new FindingList()
  private readonly configs: MetadataConfigs
  /** topic id -> name, and its partition ids (TopicRecord, PartitionRecord, RemoveTopicRecord) */
  private readonly names = new Map<string, string>()
  private readonly parts = new Map<string, Set<number>>()
  private readonly snapshot: KafkaFile[]
  private readonly logs: KafkaFile[]
  private snapshotRead = false

  constructor(readonly dir: PartitionDir) {
    this.configs = {
      path: dir.path,
      topics: new Map(),
      brokers: new Map(),
      features: new Map(),
      findings: this.findings,
      lost: [],
    }
    // the newest snapshot holds the state up to its offset; the log then replays on top of it
    this.snapshot = dir.files.filter((f) => f.kind === 'checkpoint').slice(-1)
    this.logs = dir.files.filter((f) => f.kind === 'log')
  }

  /** the snapshot and the log read alone, when no partition scan reads the log */
  readAlone(): void {
    this.snapshotRead = true
    this.configs.lost.push(...this.readFiles([...this.snapshot, ...this.logs]))
  }

  /** the partition scan's frames of one segment, its records applied on the way (PartitionScanOptions.frames) */
  tap(frames: Frames, src: SegmentSource, file: KafkaFile): Frames {
    this.readSnapshot()
    return dataBatchTap(
      frames,
      file,
      (f, at) => this.lose(f, at),
      (ev) => this.batch(readFrame(ev, { verifyCrc: false }) as V2Batch, src, file),
    )
  }

  /**
   * The configs and counts; `scanFindings`: the partition scan's findings when it tapped the frames (a segment it
   * could not open or that changed while read loses the records past it, as reading alone would say)
   */
  finish(scanFindings: readonly Finding[] = []): MetadataLog {
    this.readSnapshot()
    for (const f of scanFindings)
      if (IO_CODES.has(f.code) && f.file !== undefined && this.logs.some((l) => l.path === f.file)) this.lose(f, f.file)
    const counts = new Map<string, number>()
    for (const [id, name] of this.names) counts.set(name, this.parts.get(id)?.size ?? 0)
    return { configs: this.configs, counts: { path: this.dir.path, counts, findings: this.findings } }
  }

  private readSnapshot(): void {
    if (this.snapshotRead) return
    this.snapshotRead = true
    this.configs.lost.push(...this.readFiles(this.snapshot))
  }

  private readFiles(files: KafkaFile[]): LostRecords[] {
    return forEachInternalRecord(files, this.findings, (rec, h, f) => this.visit(rec, h, f), notDecoded)
  }

  /** one data batch's records as forEachInternalRecord reads them: an error is a finding and the rest is skipped */
  private batch(b: V2Batch, src: SegmentSource, file: KafkaFile): void {
    visitBatch(b, src, file, this.findings, (rec, h, f) => this.visit(rec, h, f), notDecoded)
  }

  /** framing damage or an I/O error: a finding, and the first place of its file past which records were lost */
  private lose(f: Finding, file: string): void {
    const order = [...this.snapshot, ...this.logs].map((x) => x.path)
    loseAt(this.findings, this.configs.lost, f, file, order)
  }

  private visit(rec: KafkaRecord, h: BatchHeader, f: KafkaFile): void {
    if (rec.value === null) return
    const m = decodeMetadataRecord(rec.value, rec.filePosition)
    if (m.type === 'FEATURE_LEVEL_RECORD') {
      if (m.unknownVersion) return
      const d = m.data as { name: string; featureLevel: number }
      this.configs.features.set(d.name, d.featureLevel)
    } else if (m.type === 'CONFIG_RECORD') {
      // a version read past its definition may lack the fields (decodeFramedRecord reads on with the ones it knows)
      if (m.unknownVersion) {
        this.findings.push(
          finding(
            'BAD_INTERNAL_RECORD',
            `ConfigRecord v${m.version} at offset ${rec.offset} is not defined in this release: not applied`,
            { file: f.path, position: rec.filePosition >= 0 ? rec.filePosition : h.position },
          ),
        )
        return
      }
      this.config(m.data as { resourceType: number; resourceName: string; name: string; value: string | null })
    } else this.partitions(m.type, m.data as { name?: string; topicId?: string; partitionId?: number })
  }

  private config(d: { resourceType: number; resourceName: string; name: string; value: string | null }): void {
    const table =
      d.resourceType === TOPIC ? this.configs.topics : d.resourceType === BROKER ? this.configs.brokers : null
    if (table === null) return
    let entry = table.get(d.resourceName)
    if (entry === undefined) {
      entry = new Map()
      table.set(d.resourceName, entry)
    }
    if (d.value === null) entry.delete(d.name)
    else entry.set(d.name, d.value)
  }

  private partitions(type: string, d: { name?: string; topicId?: string; partitionId?: number }): void {
    if (type === 'TOPIC_RECORD' && d.topicId !== undefined && d.name !== undefined) {
      this.names.set(d.topicId, d.name)
      this.parts.set(d.topicId, new Set())
    } else if (type === 'PARTITION_RECORD' && d.topicId !== undefined && d.partitionId !== undefined) {
      this.parts.get(d.topicId)?.add(d.partitionId)
    } else if (type === 'REMOVE_TOPIC_RECORD' && d.topicId !== undefined) {
      this.names.delete(d.topicId)
      this.parts.delete(d.topicId)
    }
  }
}

/** a metadata record's own decoding error (not the framing's), as a finding at its batch */
function notDecoded(e: unknown, f: KafkaFile, at: number): Finding {
  return finding('BAD_INTERNAL_RECORD', `metadata record not decoded: ${(e as Error).message}`, {
    file: f.path,
    position: at,
  })
}
