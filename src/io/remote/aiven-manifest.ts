// The `.rsm-manifest` object Aiven's plugin writes beside each remote segment (JSON), read as its classes define
// it: io.aiven.kafka.tieredstorage.manifest.SegmentManifestV1 (`chunkIndex`, `segmentIndexes`, `compression`,
// `encryption`), SegmentIndexesV1 / SegmentIndexV1 (each index's `position` and `size` in the `.indexes` object),
// SegmentEncryptionMetadataV1 (`dataKey`, `aad`, a 12-byte IV), and manifest.index.{Fixed,Variable}SizeChunkIndex
// with AbstractChunkIndex.materializeChunks (every chunk but the last holds `originalChunkSize` bytes of the
// segment; a fixed index's transformed chunks are `transformedChunkSize` bytes but the last, a variable one lists
// them: TransformedChunksDeserializer, base64 of a zstd frame of ChunkSizesBinaryCodec's encoding).
import { zstd } from '../../decode/codecs/zstd.js'

/** one chunk: its bytes in the segment and in the `.log` object */
export interface AivenChunk {
  index: number
  originalPosition: number
  originalSize: number
  transformedPosition: number
  transformedSize: number
}

export interface AivenIndexRange {
  position: number
  size: number
}

export interface AivenManifest {
  originalFileSize: number
  chunks: AivenChunk[]
  compression: boolean
  /** `<keyId>:<base64 of the RSA-wrapped AES key>` and the AAD, when the segment is encrypted */
  encryption: { keyId: string; wrappedKey: Buffer; aad: Buffer } | null
  /** Kafka's RemoteStorageManager.IndexType names: offset, timestamp, producerSnapshot, leaderEpoch, transaction */
  indexes: Record<string, AivenIndexRange | null>
  /** the copy of the segment's metadata the plugin keeps (SegmentManifestV1.remoteLogSegmentMetadata), if present */
  segment: { startOffset: number; endOffset: number; segmentLeaderEpochs: Record<string, number> } | null
}

/** the IV at the start of each encrypted chunk (SegmentEncryptionMetadataV1.IV_SIZE) and GCM's tag at its end */
export const AES_GCM_IV = 12
export const AES_GCM_TAG = 16
/** TransformedChunksDeserializer.MAX_DECOMPRESSED_SIZE */
const MAX_SIZES_BYTES = 10 * 1024 * 1024

export class ManifestError extends Error {}

const int = (v: unknown, what: string): number => {
  if (typeof v !== 'number' || !Number.isSafeInteger(v) || v < 0)
    throw new ManifestError(`${what} is not a non-negative integer`)
  return v
}
const obj = (v: unknown, what: string): Record<string, unknown> => {
  if (typeof v !== 'object' || v === null || Array.isArray(v)) throw new ManifestError(`${what} is missing`)
  return v as Record<string, unknown>
}

/** ChunkSizesBinaryCodec.decode: count, then (count > 1) base and bytes per value, the values but the last on the base, the last in full */
export function decodeChunkSizes(b: Buffer): number[] {
  const need = (n: number): void => {
    if (b.length < n) throw new ManifestError('transformedChunks is cut short')
  }
  need(4)
  const count = b.readInt32BE(0)
  if (count < 0) throw new ManifestError(`transformedChunks has a negative count (${count})`)
  if (count === 0) return []
  if (count === 1) {
    need(8)
    return [b.readInt32BE(4)]
  }
  need(9)
  const base = b.readInt32BE(4)
  const width = b[8]!
  if (width < 1 || width > 4) throw new ManifestError(`transformedChunks has ${width} bytes per value`)
  need(9 + (count - 1) * width + 4)
  const out: number[] = []
  for (let i = 0; i < count - 1; i++) out.push(base + b.readUIntBE(9 + i * width, width))
  out.push(b.readInt32BE(9 + (count - 1) * width))
  return out
}

/** AbstractChunkIndex.materializeChunks over the transformed sizes */
function materialize(
  originalChunkSize: number,
  originalFileSize: number,
  transformed: (i: number, count: number) => number,
  count: number,
): AivenChunk[] {
  const chunks: AivenChunk[] = []
  let op = 0
  let tp = 0
  for (let i = 0; i < count; i++) {
    const originalSize = i === count - 1 ? originalFileSize - (count - 1) * originalChunkSize : originalChunkSize
    const transformedSize = transformed(i, count)
    if (originalSize < 0 || transformedSize < 0) throw new ManifestError(`chunk ${i} has a negative size`)
    chunks.push({ index: i, originalPosition: op, originalSize, transformedPosition: tp, transformedSize })
    op += originalSize
    tp += transformedSize
  }
  return chunks
}

function chunkIndex(ci: Record<string, unknown>): { originalFileSize: number; chunks: AivenChunk[] } {
  const originalChunkSize = int(ci.originalChunkSize, 'chunkIndex.originalChunkSize')
  const originalFileSize = int(ci.originalFileSize, 'chunkIndex.originalFileSize')
  if (originalChunkSize === 0) throw new ManifestError('chunkIndex.originalChunkSize is 0')
  if (ci.type === 'fixed') {
    const size = int(ci.transformedChunkSize, 'chunkIndex.transformedChunkSize')
    const last = int(ci.finalTransformedChunkSize, 'chunkIndex.finalTransformedChunkSize')
    const count = Math.ceil(originalFileSize / originalChunkSize)
    return {
      originalFileSize,
      chunks: materialize(originalChunkSize, originalFileSize, (i, n) => (i === n - 1 ? last : size), count),
    }
  }
  if (ci.type === 'variable') {
    if (typeof ci.transformedChunks !== 'string') throw new ManifestError('chunkIndex.transformedChunks is missing')
    let sizes: number[]
    try {
      sizes = decodeChunkSizes(
        zstd.decompress(Buffer.from(ci.transformedChunks, 'base64'), MAX_SIZES_BYTES, { magic: 2 }),
      )
    } catch (e) {
      throw e instanceof ManifestError ? e : new ManifestError(`chunkIndex.transformedChunks: ${(e as Error).message}`)
    }
    const count = sizes.length
    if (count !== Math.ceil(originalFileSize / originalChunkSize)) {
      throw new ManifestError(
        `chunkIndex lists ${count} chunks, ${originalFileSize} bytes in chunks of ${originalChunkSize} make ${Math.ceil(originalFileSize / originalChunkSize)}`,
      )
    }
    return { originalFileSize, chunks: materialize(originalChunkSize, originalFileSize, (i) => sizes[i]!, count) }
  }
  throw new ManifestError(`chunkIndex.type ${JSON.stringify(ci.type)} is neither fixed nor variable`)
}

const INDEX_NAMES = ['offset', 'timestamp', 'producerSnapshot', 'leaderEpoch', 'transaction'] as const

/** A manifest's text as SegmentManifestV1. @throws ManifestError saying what is wrong */
export function parseAivenManifest(text: string): AivenManifest {
  let json: unknown
  try {
    json = JSON.parse(text)
  } catch (e) {
    throw new ManifestError(`not JSON: ${(e as Error).message}`)
  }
  const m = obj(json, 'the manifest')
  if (m.version !== '1')
    throw new ManifestError(`version ${JSON.stringify(m.version)} (tsdump reads version "1", SegmentManifestV1)`)
  const { originalFileSize, chunks } = chunkIndex(obj(m.chunkIndex, 'chunkIndex'))
  const si = obj(m.segmentIndexes, 'segmentIndexes')
  const indexes: Record<string, AivenIndexRange | null> = {}
  for (const n of INDEX_NAMES) {
    const r = si[n]
    indexes[n] =
      r === null || r === undefined
        ? null
        : { position: int(obj(r, n).position, `${n}.position`), size: int(obj(r, n).size, `${n}.size`) }
  }
  let encryption: AivenManifest['encryption'] = null
  if (m.encryption !== undefined && m.encryption !== null) {
    const e = obj(m.encryption, 'encryption')
    // EncryptedDataKey.parse: exactly one ':' between the key id and the base64 key
    const dk = typeof e.dataKey === 'string' ? e.dataKey : ''
    const colon = dk.indexOf(':')
    if (colon <= 0 || dk.lastIndexOf(':') !== colon)
      throw new ManifestError('encryption.dataKey is not <keyId>:<base64>')
    if (typeof e.aad !== 'string') throw new ManifestError('encryption.aad is missing')
    encryption = {
      keyId: dk.slice(0, colon),
      wrappedKey: Buffer.from(dk.slice(colon + 1), 'base64'),
      aad: Buffer.from(e.aad, 'base64'),
    }
  }
  let segment: AivenManifest['segment'] = null
  const rm = m.remoteLogSegmentMetadata
  if (typeof rm === 'object' && rm !== null) {
    const r = rm as Record<string, unknown>
    if (typeof r.startOffset === 'number' && typeof r.endOffset === 'number') {
      segment = {
        startOffset: r.startOffset,
        endOffset: r.endOffset,
        segmentLeaderEpochs: (typeof r.segmentLeaderEpochs === 'object' && r.segmentLeaderEpochs !== null
          ? r.segmentLeaderEpochs
          : {}) as Record<string, number>,
      }
    }
  }
  return { originalFileSize, chunks, compression: m.compression === true, encryption, indexes, segment }
}
