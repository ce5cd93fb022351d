// Where remote segments are read from: a directory (LocalTieredStorage's own layout, or a copy of it) or an
// S3 bucket and prefix. Both list their objects and open one as a SegmentSource, so the scan and the dump read a
// remote segment exactly as they read a file. A store is opened once per thread and kept: the spec string is
// what crosses to worker threads.
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { SegmentSource } from '../../decode/segment-source.js'
import { FileSource } from '../file-source.js'
import { InputError } from '../input-error.js'
import { escapeName } from '../raw-names.js'
import { forgetAivenObjects } from './aiven-source.js'
import { LOCAL_TIERED_ROOT } from './names.js'
import { S3Store } from './s3-store.js'
import type { RemoteObject, RemoteStore } from './remote-store.js'

export type { RemoteObject, RemoteStore } from './remote-store.js'

class DirStore implements RemoteStore {
  private readonly root: string
  readonly skipped: Array<{ key: string; reason: string }> = []
  /** the entries that could not be listed are said by the first whole listing only */
  private surveyed = false
  constructor(readonly spec: string) {
    let st: fs.Stats
    try {
      st = fs.statSync(spec)
    } catch {
      throw new InputError('UNREADABLE', spec, '--remote-storage: no such directory')
    }
    if (!st.isDirectory())
      throw new InputError('UNREADABLE', spec, '--remote-storage: not a directory (a directory or s3://bucket/prefix)')
    // LocalTieredStorage writes under <rsm.config.dir>/kafka-tiered-storage: take either directory
    const inner = path.join(spec, LOCAL_TIERED_ROOT)
    this.root = fs.existsSync(inner) && fs.statSync(inner).isDirectory() ? inner : spec
  }

  compareKeys(a: string, b: string): number {
    return a < b ? -1 : a > b ? 1 : 0
  }

  forEachKey(visit: (key: string, size?: number) => void, logSizes = false): void {
    const skipped = this.surveyed ? null : this.skipped
    this.surveyed = true
    // the root must be readable; below it, an entry that cannot be read costs only itself
    const top = fs.readdirSync(this.root, { withFileTypes: true, encoding: 'buffer' })
    this.walk(
      this.root,
      '',
      top,
      0,
      (key, full) => visit(key, logSizes && key.endsWith('.log') ? sizeOf(full) : undefined),
      null,
      skipped,
    )
  }

  listPrefix(prefix: string): RemoteObject[] {
    const out: RemoteObject[] = []
    const start = this.prefixDir(prefix)
    if (start !== null)
      this.walk(
        start.dir,
        start.rel,
        start.entries,
        start.depth,
        (key, full) => out.push({ key, size: fs.statSync(full).size }),
        prefix,
        null,
      )
    return out.sort((a, b) => this.compareKeys(a.key, b.key))
  }

  /**
   * The deepest directory a prefix names whole (`topic-0-<id>/` of `topic-0-<id>/`, `a/topic-<id>/0/` of Aiven's
   * `a/topic-<id>/0/`), reached as walk() would reach it (each level a directory, not a link, with a UTF-8 name),
   * and its entries; null when walk() would list nothing there. A partition's listing that read the root every time
   * cost a read of every partition's entry per partition (1,000 partitions from a directory: 56% of reconcile's CPU).
   */
  private prefixDir(
    prefix: string,
  ): { dir: string; rel: string; entries: Array<fs.Dirent<Buffer>>; depth: number } | null {
    const rel = prefix.slice(0, prefix.lastIndexOf('/') + 1)
    const levels = rel === '' ? [] : rel.slice(0, -1).split('/')
    if (levels.length > MAX_DEPTH) return null
    let dir = this.root
    try {
      for (const name of levels) {
        if (name === '' || name === '.' || name === '..' || escapeName(Buffer.from(name)) !== name) return null
        dir = path.join(dir, name)
        if (!fs.lstatSync(dir).isDirectory()) return null
      }
      // the root must be readable (as for the whole listing); below it, what cannot be read lists nothing
      return {
        dir,
        rel,
        entries: fs.readdirSync(dir, { withFileTypes: true, encoding: 'buffer' }),
        depth: levels.length,
      }
    } catch (e) {
      if (levels.length === 0) throw e
      return null
    }
  }

  /**
   * Aiven's keys are `<prefix>/<topic>-<id>/<partition>/<file>`: a few levels, a prefix of any depth. `under`: only
   * the keys starting with it (the directories on its way); `skipped`: where what cannot be read is noted
   */
  private walk(
    dir: string,
    rel: string,
    entries: Array<fs.Dirent<Buffer>>,
    depth: number,
    visit: (key: string, full: string) => void,
    under: string | null,
    skipped: Array<{ key: string; reason: string }> | null,
  ): void {
    for (const d of entries) {
      const shown = escapeName(d.name)
      const key = rel + shown
      if (under !== null && !key.startsWith(under) && !under.startsWith(key)) continue
      if (Buffer.compare(Buffer.from(shown), d.name) !== 0) {
        skipped?.push({ key, reason: 'its name is not UTF-8 (no storage layout names objects so): not read' })
        continue
      }
      const full = path.join(dir, shown)
      try {
        if (d.isDirectory()) {
          if (depth < MAX_DEPTH && (under === null || under.startsWith(key + '/') || key.startsWith(under)))
            this.walk(
              full,
              key + '/',
              fs.readdirSync(full, { withFileTypes: true, encoding: 'buffer' }),
              depth + 1,
              visit,
              under,
              skipped,
            )
        } else if (d.isFile() && (under === null || key.startsWith(under))) visit(key, full)
      } catch (e) {
        skipped?.push({ key, reason: `${(e as NodeJS.ErrnoException).code ?? (e as Error).message}: not read` })
      }
    }
  }

  nameOf(key: string): string {
    return path.join(this.root, key)
  }

  open(key: string): SegmentSource {
    return new FileSource(this.nameOf(key))
  }
}

/** a file's size, or undefined when it cannot be had */
function sizeOf(full: string): number | undefined {
  try {
    return fs.statSync(full).size
  } catch {
    return undefined
  }
}

/** directory levels below the root a listing descends */
const MAX_DEPTH = 12

const stores = new Map<string, RemoteStore>()

/**
 * The store of a `--remote-storage` value, opened once per thread; `concurrency` (--remote-concurrency) is the
 * first opener's. @throws InputError when it cannot be used
 */
export function openRemoteStore(spec: string, concurrency?: number): RemoteStore {
  let s = stores.get(spec)
  if (s === undefined) {
    s = spec.startsWith('s3://') ? new S3Store(spec, concurrency) : new DirStore(spec)
    stores.set(spec, s)
  }
  return s
}

/** Ends the S3 stores' I/O threads (the process would otherwise wait for them). */
export function closeRemoteStores(): void {
  for (const s of stores.values()) if (s instanceof S3Store) s.close()
  stores.clear()
  forgetAivenObjects()
}
