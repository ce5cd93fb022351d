// The metadata logs a broker model read (scan/metadata-log.ts), each once: in its partition scan's pass when the
// scan was given its tap before it read the log, else alone when first asked. Keyed by the directory's resolved path,
// each answer names the directory as its caller gave it.
import * as path from 'node:path'
import type { Finding } from '../analysis/findings.js'
import type { PartitionDir } from '../io/discover.js'
import type { Frames } from './internal-records.js'
import type { MetadataLog } from './metadata-log.js'
import { MetadataLogReader, readMetadataLog } from './metadata-log.js'
import type { SegmentSource } from '../decode/segment-source.js'
import type { KafkaFile } from '../io/discover.js'

export class MetadataLogs {
  private readonly read = new Map<string, MetadataLog>()
  /** the one a partition scan is reading */
  private reading: MetadataLogReader | undefined

  /** `dir`'s log was read (in a scan or alone) */
  has(dir: PartitionDir): boolean {
    return this.read.has(path.resolve(dir.path))
  }

  /** the tap that reads `dir`'s records in its partition scan's pass (PartitionScanOptions.frames) */
  tap(dir: PartitionDir): (frames: Frames, src: SegmentSource, file: KafkaFile) => Frames {
    const m = new MetadataLogReader(dir)
    this.reading = m
    return (frames, src, file) => m.tap(frames, src, file)
  }

  /** a partition's scan ended: when it was the tapped metadata log, its records are read (`findings`: the scan's) */
  scanned(dir: PartitionDir, findings: readonly Finding[]): void {
    const m = this.reading
    if (m === undefined || m.dir.path !== dir.path) return
    this.reading = undefined
    this.read.set(path.resolve(dir.path), m.finish(findings))
  }

  /** `dir`'s configs and partition counts: the scan's read, else read alone now */
  of(dir: PartitionDir): MetadataLog {
    const key = path.resolve(dir.path)
    let m = this.read.get(key)
    if (m === undefined) {
      m = readMetadataLog(dir)
      this.read.set(key, m)
    }
    if (m.configs.path === dir.path) return m
    return { configs: { ...m.configs, path: dir.path }, counts: { ...m.counts, path: dir.path } }
  }
}
