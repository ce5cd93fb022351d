// Codec registry keyed by the attribute id (bits 0-2 of the batch attributes).
import type { Codec } from './codec.js'
import { gzip } from './gzip.js'
import { lz4 } from './lz4.js'
import { snappy } from './snappy.js'
import { zstd } from './zstd.js'

export type { ByteStream, Codec, DecompressContext } from './codec.js'
export { CodecError } from './codec-error.js'

const registry = new Map<number, Codec>([
  [gzip.id, gzip],
  [snappy.id, snappy],
  [lz4.id, lz4],
  [zstd.id, zstd],
])

/** The codec for an attribute id, or undefined when tsdump cannot decompress it. */
export function getCodec(id: number): Codec | undefined {
  return registry.get(id)
}

/** default cap on one batch's decompressed size: far above any real batch (message.max.bytes is 1 MiB by default) */
export const DEFAULT_MAX_DECOMPRESSED = 256 * 1024 * 1024
