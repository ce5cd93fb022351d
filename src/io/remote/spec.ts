// What the user said about a tiered storage: where it is (--remote-storage), its layout and key prefix
// (--remote-layout, --remote-prefix) and the key that decrypts it (--remote-key). Plain data: it crosses to
// worker threads. Commands take the storage alone as a string too.
import type { RemoteLayoutName } from './layout.js'

export interface RemoteSpec {
  /** a directory or s3://bucket/prefix */
  storage: string
  layout?: RemoteLayoutName
  /** Aiven's key.prefix */
  prefix?: string
  /** the RSA private key (PEM file) of Aiven's encryption */
  keyFile?: string
  /** S3: GETs in flight at once (--remote-concurrency; DEFAULT_REMOTE_CONCURRENCY) */
  concurrency?: number
}

/** GETs in flight at once by default (--remote-concurrency): each holds at most one 2 MiB chunk in the I/O thread */
export const DEFAULT_REMOTE_CONCURRENCY = 4
/** the most --remote-concurrency takes: 33 chunks of 2 MiB stay far below the 128 MiB a run may take */
export const MAX_REMOTE_CONCURRENCY = 32

/** the environment variable that names the PEM file (or holds the PEM) when --remote-key is not given */
export const REMOTE_KEY_ENV = 'TSDUMP_REMOTE_KEY'

export type RemoteInput = string | RemoteSpec

export function remoteSpecOf(r: RemoteInput): RemoteSpec {
  return typeof r === 'string' ? { storage: r } : r
}
