// A remote segment of Aiven's plugin read back as the segment it was: its `.log` object is the segment cut into
// chunks, each zstd-compressed (manifest `compression`) and then AES-256-GCM-encrypted (manifest `encryption`), as
// KafkaRemoteStorageManager.transformation stacks them; reading undoes them in the opposite order, as
// fetch.DefaultChunkManager does (DecryptionChunkEnumeration, then DecompressionChunkEnumeration). Each chunk's
// IV is its first 12 bytes, the GCM tag its last 16, the AAD the manifest's (AesEncryptionProvider.decryptionCipher);
// the AES key is the manifest's dataKey unwrapped with the RSA private key: RSA/NONE/OAEPWithSHA3-512AndMGF1Padding
// under BouncyCastle, SHA3-512 for OAEP and MGF1 both (RsaEncryptionProvider.decryptDataKey).
// A segment's index (`transaction`, the .txnindex) is one range of the `.indexes` object, encrypted when the
// segment is but never compressed (KafkaRemoteStorageManager.transformIndex / fetchIndexBytes).
// Only the chunks a read touches are fetched (ranged reads of the object), one chunk kept at a time.
import * as crypto from 'node:crypto'
import * as fs from 'node:fs'
import { zstd } from '../../decode/codecs/zstd.js'
import type { SegmentSource } from '../../decode/segment-source.js'
import { BufferSource } from '../buffer-source.js'
import { InputError } from '../input-error.js'
import type { AivenChunk, AivenManifest } from './aiven-manifest.js'
import { AES_GCM_IV, AES_GCM_TAG, ManifestError, parseAivenManifest } from './aiven-manifest.js'
import type { RemoteStore } from './remote-store.js'
import { REMOTE_KEY_ENV } from './spec.js'

/** what a KafkaFile of Aiven's layout carries to be opened (it crosses to worker threads: plain data) */
export interface AivenRef {
  /** the `.rsm-manifest` object's key */
  manifest: string
  /** read this index out of the `.indexes` object instead of the segment */
  index?: 'transaction'
  /** --remote-key: the RSA private key (PEM file) that unwraps the data keys */
  keyFile?: string
  /** the manifest object's listed size (opening it then needs no listing) */
  manifestSize?: number
}

/**
 * Manifests and unwrapped data keys read on this thread, the newest CACHED of each: a manifest is read when its
 * segment is opened (the scan opens a segment's .log and its .indexes one after the other), and keeping every one
 * grew with the segment count, a chunk index each.
 */
const manifests = new Map<string, AivenManifest>()
const dataKeys = new Map<string, Buffer>()
/** each --remote-key file's bytes, by its path */
const pems = new Map<string, Buffer>()
const CACHED = 64

function remember<V>(cache: Map<string, V>, id: string, value: V): void {
  cache.set(id, value)
  if (cache.size > CACHED) cache.delete(cache.keys().next().value!)
}

function readObject(store: RemoteStore, key: string, position = 0, length?: number, size?: number): Buffer {
  const src = store.open(key, size)
  try {
    const n = length ?? src.size - position
    const b = src.readAt(position, n)
    if (b.length < n)
      throw new InputError(
        'REMOTE_UNREADABLE',
        store.nameOf(key),
        `the object has ${src.size} bytes, ${position + n} were to be read`,
        position,
      )
    return b
  } finally {
    src.close()
  }
}

/** Forgets the manifests, data keys and key files read (with the stores: io/remote/store.ts closeRemoteStores). */
export function forgetAivenObjects(): void {
  manifests.clear()
  dataKeys.clear()
  pems.clear()
}

/** the manifest of a segment (`size`: its object's listed size), read once while it is among the newest */
export function aivenManifest(store: RemoteStore, key: string, size?: number): AivenManifest {
  const id = `${store.spec}\u0000${key}`
  let m = manifests.get(id)
  if (m === undefined) {
    try {
      m = parseAivenManifest(readObject(store, key, 0, undefined, size).toString('utf8'))
    } catch (e) {
      if (e instanceof ManifestError)
        throw new InputError(
          'REMOTE_UNREADABLE',
          store.nameOf(key),
          `not a manifest Aiven's plugin reads: ${e.message}`,
        )
      throw e
    }
    remember(manifests, id, m)
  }
  return m
}

function privateKeyPem(keyFile: string | undefined): { pem: Buffer; from: string } | null {
  const given = keyFile ?? process.env[REMOTE_KEY_ENV]
  if (given === undefined || given === '') return null
  if (given.startsWith('-----BEGIN')) return { pem: Buffer.from(given), from: REMOTE_KEY_ENV }
  try {
    // read once per run: each segment's manifest may wrap a data key of its own, each unwrapped with this key
    let pem = pems.get(given)
    if (pem === undefined) {
      pem = fs.readFileSync(given)
      pems.set(given, pem)
    }
    return { pem, from: given }
  } catch (e) {
    throw new InputError('REMOTE_KEY_UNUSABLE', given, `--remote-key: ${(e as Error).message}`)
  }
}

/** the manifest's AES data key, unwrapped with the private key */
function dataKey(store: RemoteStore, ref: AivenRef, m: AivenManifest, logName: string): Buffer {
  const enc = m.encryption!
  const pk = privateKeyPem(ref.keyFile)
  // the same wrapped key unwraps to the same data key: the plugin wraps one data key for many segments
  const id = `${pk?.from ?? ''}\u0000${enc.wrappedKey.toString('base64')}`
  const cached = dataKeys.get(id)
  if (cached !== undefined) return cached
  if (pk === null) {
    throw new InputError(
      'REMOTE_KEY_UNUSABLE',
      logName,
      `encrypted (data key wrapped by RSA key "${enc.keyId}"): give its private key with --remote-key <pem file> or ${REMOTE_KEY_ENV}; not read`,
    )
  }
  let key: Buffer
  try {
    key = crypto.privateDecrypt(
      { key: pk.pem, padding: crypto.constants.RSA_PKCS1_OAEP_PADDING, oaepHash: 'sha3-512' },
      enc.wrappedKey,
    )
  } catch (e) {
    throw new InputError(
      'REMOTE_KEY_UNUSABLE',
      store.nameOf(ref.manifest),
      `the data key in ${store.nameOf(ref.manifest)} (wrapped by RSA key "${enc.keyId}") does not unwrap with ${pk.from}: a different key pair, or a damaged manifest (${(e as Error).message.split('\n')[0]}); the segment is not read`,
    )
  }
  if (key.length !== 32 && key.length !== 16 && key.length !== 24) {
    throw new InputError(
      'REMOTE_KEY_UNUSABLE',
      store.nameOf(ref.manifest),
      `the unwrapped data key has ${key.length} bytes, not an AES key`,
    )
  }
  remember(dataKeys, id, key)
  return key
}

function decrypt(chunk: Buffer, key: Buffer, aad: Buffer): Buffer {
  if (chunk.length < AES_GCM_IV + AES_GCM_TAG) throw new Error(`${chunk.length} bytes, shorter than an IV and a tag`)
  const d = crypto.createDecipheriv(
    `aes-${key.length * 8}-gcm` as crypto.CipherGCMTypes,
    key,
    chunk.subarray(0, AES_GCM_IV),
  )
  d.setAAD(aad)
  d.setAuthTag(chunk.subarray(chunk.length - AES_GCM_TAG))
  try {
    return Buffer.concat([d.update(chunk.subarray(AES_GCM_IV, chunk.length - AES_GCM_TAG)), d.final()])
  } catch {
    throw new Error('AES-GCM authentication failed (the bytes, the chunk index or the key are not what was written)')
  }
}

/** the segment bytes of a `.log` object of Aiven's layout */
class AivenLogSource implements SegmentSource {
  bytesRead = 0
  readonly size: number
  private current: { chunk: AivenChunk; bytes: Buffer } | undefined
  private readonly object: SegmentSource

  constructor(
    readonly name: string,
    object: SegmentSource,
    private readonly m: AivenManifest,
    private readonly key: Buffer | null,
  ) {
    this.object = object
    this.size = m.originalFileSize
  }

  private chunkAt(position: number): { chunk: AivenChunk; bytes: Buffer } {
    const c = this.current
    if (
      c !== undefined &&
      position >= c.chunk.originalPosition &&
      position < c.chunk.originalPosition + c.chunk.originalSize
    )
      return c
    // every chunk but the last holds originalChunkSize bytes (AbstractChunkIndex.findChunkForOriginalOffset)
    const size0 = this.m.chunks[0]!.originalSize
    const chunk = this.m.chunks[Math.min(this.m.chunks.length - 1, Math.floor(position / size0))]!
    const where = `chunk ${chunk.index} (object bytes ${chunk.transformedPosition}..${chunk.transformedPosition + chunk.transformedSize}, segment bytes ${chunk.originalPosition}..${chunk.originalPosition + chunk.originalSize})`
    const fail = (why: string): never => {
      throw new InputError(
        'REMOTE_CHUNK_UNREADABLE',
        this.name,
        `${where}: ${why}; the segment is read up to it`,
        chunk.originalPosition,
      )
    }
    if (chunk.transformedPosition + chunk.transformedSize > this.object.size)
      fail(`the chunk index places it past the object's end (${this.object.size} bytes)`)
    let bytes = this.object.readAt(chunk.transformedPosition, chunk.transformedSize)
    try {
      if (this.key !== null) bytes = decrypt(bytes, this.key, this.m.encryption!.aad)
      if (this.m.compression) bytes = zstd.decompress(bytes, chunk.originalSize, { magic: 2 })
    } catch (e) {
      fail((e as Error).message)
    }
    if (bytes.length !== chunk.originalSize)
      fail(`it holds ${bytes.length} bytes, the chunk index says ${chunk.originalSize}`)
    this.current = { chunk, bytes }
    return this.current
  }

  readAt(position: number, length: number): Buffer {
    const out = Buffer.allocUnsafe(Math.max(0, Math.min(length, this.size - position)))
    const n = this.readInto(out, position, out.length)
    return n === out.length ? out : out.subarray(0, n)
  }

  readInto(target: Buffer, position: number, length: number): number {
    const n = Math.max(0, Math.min(length, target.length, this.size - position))
    let done = 0
    while (done < n) {
      const { chunk, bytes } = this.chunkAt(position + done)
      const from = position + done - chunk.originalPosition
      done += bytes.copy(target, done, from, Math.min(bytes.length, from + n - done))
    }
    this.bytesRead += done
    return done
  }

  close(): void {
    this.current = undefined
    this.object.close()
  }
}

/** One object of an Aiven segment as a SegmentSource: `key` is its `.log` object (or, with ref.index, its `.indexes`). */
export function openAivenObject(store: RemoteStore, key: string, ref: AivenRef, size?: number): SegmentSource {
  const name = store.nameOf(key)
  const m = aivenManifest(store, ref.manifest, ref.manifestSize)
  if (ref.index !== undefined) {
    const r = m.indexes[ref.index]
    if (r === null || r === undefined || r.size === 0) return new BufferSource(Buffer.alloc(0), name)
    const dk = m.encryption === null ? null : dataKey(store, ref, m, name)
    let bytes = readObject(store, key, r.position, r.size, size)
    if (dk !== null) {
      try {
        bytes = decrypt(bytes, dk, m.encryption!.aad)
      } catch (e) {
        throw new InputError(
          'REMOTE_CHUNK_UNREADABLE',
          name,
          `the ${ref.index} index (object bytes ${r.position}..${r.position + r.size}): ${(e as Error).message}`,
        )
      }
    }
    return new BufferSource(bytes, name)
  }
  return new AivenLogSource(name, store.open(key, size), m, m.encryption === null ? null : dataKey(store, ref, m, name))
}
