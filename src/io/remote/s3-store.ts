// `--remote-storage s3://bucket/prefix`: the objects listed and read through the I/O thread (s3-worker.ts), in
// ranged GETs of CHUNK bytes that feed the same reads as a file. Nothing is downloaded whole: this thread holds
// the chunk being read, the I/O thread at most PREFETCH more of the same object (s3-worker.ts), so a 1 GiB
// segment costs a few chunks of memory.
import { createRequire } from 'node:module'
import type { SegmentSource } from '../../decode/segment-source.js'
import { InputError } from '../input-error.js'
import { LOCAL_TIERED_ROOT } from './names.js'
import type { RemoteObject, RemoteStore } from './remote-store.js'
import { SyncBridge } from './sync-bridge.js'
import { DEFAULT_REMOTE_CONCURRENCY } from './spec.js'

/** LocalTieredStorage's own level (LOCAL_TIERED_ROOT), which a copy of its tree may keep */
const INNER = LOCAL_TIERED_ROOT + '/'

/** bytes per ranged GET */
export const CHUNK = 2 * 1024 * 1024

interface ListAnswer {
  id: number
  objects?: RemoteObject[]
  /** a page's continuation (op 'list' with `page`) */
  token?: string
  error?: string
}
interface GetAnswer {
  id: number
  length?: number
  error?: string
}

/** the compiled I/O thread: beside this file in dist/; when this file runs from src/ (the tests), the build in dist/ */
function workerUrl(): URL {
  const here = import.meta.url
  return here.endsWith('.ts') ? new URL('../../../dist/io/remote/s3-worker.js', here) : new URL('./s3-worker.js', here)
}

export function parseS3Spec(spec: string): { bucket: string; prefix: string } {
  const m = /^s3:\/\/([^/]+)\/?(.*)$/.exec(spec)
  if (m === null || m[1] === '')
    throw new InputError('UNREADABLE', spec, '--remote-storage: expected s3://bucket/prefix')
  const prefix = m[2] === '' || m[2]!.endsWith('/') ? m[2]! : m[2] + '/'
  return { bucket: m[1]!, prefix }
}

/**
 * @aws-sdk/client-s3 is an optional dependency (tens of MiB that only s3:// needs), loaded by the I/O thread:
 * resolved here first, so that its absence is a usage error saying how to install it.
 */
function sdkInstalled(spec: string): void {
  try {
    createRequire(import.meta.url).resolve('@aws-sdk/client-s3')
  } catch {
    throw new InputError(
      'UNREADABLE',
      spec,
      's3:// needs the optional package @aws-sdk/client-s3, which is not installed: npm install @aws-sdk/client-s3 (where tsdump is installed), or copy the bucket to a directory and give that',
    )
  }
}

export class S3Store implements RemoteStore {
  private readonly bucket: string
  private prefix: string
  /** whether `prefix` is known to be the tree's root (kafka-tiered-storage/ below it or not) */
  private resolved = false
  private readonly bridge: SyncBridge
  /** the I/O thread puts each chunk asked for here */
  private readonly shared = new SharedArrayBuffer(CHUNK)
  /** GETs beside the one asked for (--remote-concurrency - 1) */
  private readonly ahead: number
  /**
   * The objects in the order the scan reads them (plan()), and where each key is in it: kept on this thread, whose
   * KafkaFiles hold the same key strings, and the next few sent with each GET; the I/O thread holding the whole
   * plan kept a copy of every key (a 1,000-partition scan from moto peaked at 164 MiB with it).
   */
  private readonly planned: RemoteObject[] = []
  private readonly planIndex = new Map<string, number>()
  /**
   * Whole-chunk buffers of closed sources, taken by the next ones: a source of a segment of real size fills a 2 MiB
   * buffer, and one allocated per segment was freed only when V8 collected it, which it does late for memory
   * outside its heap (one partition of 40 remote segments of 3 MB from moto peaked at 224 MiB, 84 from a directory).
   */
  private readonly spare: Buffer[] = []

  constructor(
    readonly spec: string,
    concurrency = DEFAULT_REMOTE_CONCURRENCY,
  ) {
    const { bucket, prefix } = parseS3Spec(spec)
    sdkInstalled(spec)
    this.bucket = bucket
    this.prefix = prefix
    this.ahead = Math.max(0, Math.floor(concurrency) - 1)
    this.bridge = new SyncBridge(workerUrl(), { bucket, chunk: CHUNK, shared: this.shared, concurrency })
  }

  /** the objects in the order they will be read: each GET names the next ones, whose first chunks the I/O thread fetches ahead */
  plan(objects: ReadonlyArray<RemoteObject>): void {
    this.planned.length = 0
    this.planIndex.clear()
    for (const o of objects) {
      this.planIndex.set(o.key, this.planned.length)
      this.planned.push(o)
    }
  }

  /** S3 lists keys in the order of their UTF-8 bytes, which is their code points' */
  compareKeys(a: string, b: string): number {
    return codePointOrder(a, b)
  }

  /** page by page (1,000 keys each), none kept */
  forEachKey(visit: (key: string) => void): void {
    this.resolve()
    let token: string | undefined
    do {
      const a = this.call<ListAnswer>(
        { op: 'list', prefix: this.prefix, page: true, ...(token !== undefined ? { token } : {}) },
        `s3://${this.bucket}/${this.prefix}`,
      )
      if (a.error !== undefined)
        throw new InputError('REMOTE_UNREADABLE', this.spec, `listing s3://${this.bucket}/${this.prefix}: ${a.error}`)
      for (const o of a.objects!) visit(o.key)
      token = a.token
    } while (token !== undefined)
  }

  listPrefix(prefix: string): RemoteObject[] {
    this.resolve()
    const a = this.call<ListAnswer>(
      { op: 'list', prefix: this.prefix + prefix, strip: this.prefix.length },
      `s3://${this.bucket}/${this.prefix}${prefix}`,
    )
    if (a.error !== undefined)
      throw new InputError(
        'REMOTE_UNREADABLE',
        this.spec,
        `listing s3://${this.bucket}/${this.prefix}${prefix}: ${a.error}`,
      )
    return a.objects!
  }

  /** the listing's rule for the root without the listing: one key listed under kafka-tiered-storage/ */
  private resolve(): void {
    if (this.resolved) return
    const a = this.call<ListAnswer>(
      { op: 'list', prefix: this.prefix + INNER, max: 1 },
      `s3://${this.bucket}/${this.prefix}`,
    )
    if (a.error !== undefined)
      throw new InputError('REMOTE_UNREADABLE', this.spec, `listing s3://${this.bucket}/${this.prefix}: ${a.error}`)
    if (a.objects!.length > 0) this.prefix += INNER
    this.resolved = true
  }

  nameOf(key: string): string {
    return `s3://${this.bucket}/${this.prefix}${key}`
  }

  open(key: string, size?: number): SegmentSource {
    if (size === undefined) {
      size = this.listPrefix(key).find((o) => o.key === key)?.size
      if (size === undefined)
        throw new InputError('REMOTE_UNREADABLE', this.nameOf(key), 'not in the bucket listing (NoSuchKey)')
    }
    this.resolve()
    return new S3Source(this, key, size)
  }

  /** a buffer for a source's chunk: a whole chunk's comes from the closed sources' when one is spare */
  chunkBuffer(size: number): Buffer {
    return size >= CHUNK ? (this.spare.pop() ?? Buffer.allocUnsafeSlow(CHUNK)) : Buffer.allocUnsafeSlow(size)
  }

  /** a closed source's buffer, kept for the next source (as many as GETs may be in flight) */
  releaseBuffer(buf: Buffer): void {
    if (buf.length === CHUNK && this.spare.length < Math.max(1, this.ahead + 1)) this.spare.push(buf)
  }

  /** bytes [chunk * CHUNK, +CHUNK) of `key` copied into `into`, their count; the I/O thread prefetches the next ones */
  chunk(key: string, index: number, size: number, into: Buffer): number {
    const request = { op: 'get', key: this.prefix + key, index, size, next: this.nextPlanned(key) }
    const a = this.call<GetAnswer>(request, this.nameOf(key), index * CHUNK)
    if (a.error !== undefined) throw new InputError('REMOTE_UNREADABLE', this.nameOf(key), a.error, index * CHUNK)
    return Buffer.from(this.shared, 0, a.length!).copy(into, 0)
  }

  /** the objects the plan reads after `key` (those not empty), as many as may be fetched beside it */
  private nextPlanned(key: string): RemoteObject[] {
    const at = this.planIndex.get(key)
    const out: RemoteObject[] = []
    if (at === undefined) return out
    for (let j = at + 1; j < this.planned.length && out.length < this.ahead; j++) {
      const o = this.planned[j]!
      if (o.size > 0) out.push({ key: this.prefix + o.key, size: o.size })
    }
    return out
  }

  /** the I/O thread's answer; a thread that does not answer at all is that object's finding, never an internal error */
  private call<T>(request: Record<string, unknown>, name: string, position = 0): T {
    try {
      return this.bridge.call<T>(request)
    } catch (e) {
      throw new InputError('REMOTE_UNREADABLE', name, (e as Error).message, position)
    }
  }

  close(): void {
    this.bridge.close()
  }
}

class S3Source implements SegmentSource {
  bytesRead = 0
  readonly name: string
  private index = -1
  /** the chunk being read (one buffer per source, reused) */
  private buf: Buffer | undefined
  private length = 0

  constructor(
    private readonly store: S3Store,
    private readonly key: string,
    readonly size: number,
  ) {
    this.name = store.nameOf(key)
  }

  readAt(position: number, length: number): Buffer {
    const n = Math.max(0, Math.min(length, this.size - position))
    const out = Buffer.allocUnsafe(n)
    this.readInto(out, position, n)
    return out
  }

  readInto(target: Buffer, position: number, length: number): number {
    const n = Math.max(0, Math.min(length, target.length, this.size - position))
    let done = 0
    while (done < n) {
      const p = position + done
      const index = Math.floor(p / CHUNK)
      if (index !== this.index) {
        this.buf ??= this.store.chunkBuffer(Math.min(CHUNK, this.size))
        this.index = -1
        this.length = this.store.chunk(this.key, index, this.size, this.buf)
        this.index = index
      }
      const from = p - index * CHUNK
      const got = this.buf!.copy(target, done, from, Math.min(this.length, from + (n - done)))
      if (got === 0)
        throw new InputError(
          'REMOTE_UNREADABLE',
          this.name,
          `the object is shorter than its listed ${this.size} bytes (no data at position ${p})`,
          p,
        )
      done += got
    }
    this.bytesRead += done
    return done
  }

  close(): void {
    if (this.buf !== undefined) this.store.releaseBuffer(this.buf)
    this.buf = undefined
    this.index = -1
  }
}

/** UTF-16 strings in the order of their code points (UTF-8's byte order): surrogates sort above U+E000..U+FFFF */
export function codePointOrder(a: string, b: string): number {
  const n = Math.min(a.length, b.length)
  for (let i = 0; i < n; i++) {
    let x = a.charCodeAt(i)
    let y = b.charCodeAt(i)
    if (x === y) continue
    if (x >= 0xd800) x = x < 0xe000 ? x + 0x2000 : x - 0x800
    if (y >= 0xd800) y = y < 0xe000 ? y + 0x2000 : y - 0x800
    return x - y
  }
  return a.length - b.length
}
