// Where remote segments are read from: a directory (LocalTieredStorage's own layout, or a copy of it) or an
// S3 bucket and prefix. Both list their objects and open one as a SegmentSource, so the scan and the dump read a
// remote segment exactly as they read a file. A store is opened once per thread and kept: the spec string is
// what crosses to worker threads.
import * as fs from 'node:fs'
import * as path from 'node:path'
import type { SegmentSource } from '../../decode/segment-source.js'
import { FileSource } from '../file-source.js'
import { InputError } from '../input-error.js'
import { LOCAL_TIERED_ROOT } from './names.js'
import { S3Store } from './s3-store.js'
import type { RemoteObject, RemoteStore } from './remote-store.js'

export type { RemoteObject, RemoteStore } from './remote-store.js'

class DirStore implements RemoteStore {
  private readonly root: string
  private listed: RemoteObject[] | undefined
  constructor (readonly spec: string) {
    let st: fs.Stats
    try { st = fs.statSync(spec) } catch { throw new InputError('UNREADABLE', spec, '--remote-storage: no such directory') }
    if (!st.isDirectory()) throw new InputError('UNREADABLE', spec, '--remote-storage: not a directory (a directory or s3://bucket/prefix)')
    // LocalTieredStorage writes under <rsm.config.dir>/kafka-tiered-storage: take either directory
    const inner = path.join(spec, LOCAL_TIERED_ROOT)
    this.root = fs.existsSync(inner) && fs.statSync(inner).isDirectory() ? inner : spec
  }

  list (): RemoteObject[] {
    if (this.listed !== undefined) return this.listed
    const out: RemoteObject[] = []
    for (const d of fs.readdirSync(this.root, { withFileTypes: true })) {
      if (!d.isDirectory()) continue
      for (const f of fs.readdirSync(path.join(this.root, d.name), { withFileTypes: true })) {
        if (!f.isFile()) continue
        out.push({ key: `${d.name}/${f.name}`, size: fs.statSync(path.join(this.root, d.name, f.name)).size })
      }
    }
    this.listed = out.sort((a, b) => (a.key < b.key ? -1 : a.key > b.key ? 1 : 0))
    return this.listed
  }

  nameOf (key: string): string { return path.join(this.root, key) }
  open (key: string): SegmentSource { return new FileSource(this.nameOf(key)) }
}

const stores = new Map<string, RemoteStore>()

/** The store of a `--remote-storage` value, opened once per thread. @throws InputError when it cannot be used */
export function openRemoteStore (spec: string): RemoteStore {
  let s = stores.get(spec)
  if (s === undefined) {
    s = spec.startsWith('s3://') ? new S3Store(spec) : new DirStore(spec)
    stores.set(spec, s)
  }
  return s
}

/** Ends the S3 stores' I/O threads (the process would otherwise wait for them). */
export function closeRemoteStores (): void {
  for (const s of stores.values()) if (s instanceof S3Store) s.close()
  stores.clear()
}
