// Parsers for option values: they throw InvalidArgumentError, which commander turns into a usage error (exit 2).
import { InvalidArgumentError } from 'commander'
import type { Command } from 'commander'
import type { RemoteLayoutName } from '../io/remote/layout.js'
import { REMOTE_LAYOUTS } from '../io/remote/layout.js'
import type { RemoteSpec } from '../io/remote/spec.js'
import { DEFAULT_REMOTE_CONCURRENCY, MAX_REMOTE_CONCURRENCY, REMOTE_KEY_ENV } from '../io/remote/spec.js'
import type { KafkaRelease } from '../format/kafka-versions.js'
import { KAFKA_RELEASES, parseKafkaRelease } from '../format/kafka-versions.js'
import type { DecoderName } from '../format/value-decoders.js'
import { DECODER_NAMES, decoderFromKafkaClass } from '../format/value-decoders.js'

/** `16MiB`, `64k`, `1048576` → bytes */
export function parseSize(s: string): number {
  const m = /^(\d+)\s*(b|k|kb|kib|m|mb|mib|g|gb|gib)?$/i.exec(s.trim())
  if (m === null) throw new InvalidArgumentError(`'${s}' is not a size (examples: 1048576, 64KiB, 16MiB, 1GiB)`)
  const unit = (m[2] ?? 'b').toLowerCase()
  const mult = unit.startsWith('k') ? 1024 : unit.startsWith('m') ? 1024 ** 2 : unit.startsWith('g') ? 1024 ** 3 : 1
  const n = Number(m[1]) * mult
  if (!Number.isSafeInteger(n) || n <= 0) throw new InvalidArgumentError(`'${s}' is out of range`)
  return n
}

/** --threads: a whole number from 1 to 256 */
export function parseThreads(s: string): number {
  const n = Number(s)
  if (!/^\d+$/.test(s.trim()) || n < 1 || n > 256)
    throw new InvalidArgumentError(`'${s}' is not a thread count (1 to 256)`)
  return n
}

export function parseDecoder(s: string): DecoderName {
  if ((DECODER_NAMES as readonly string[]).includes(s)) return s as DecoderName
  const k = decoderFromKafkaClass(s)
  if (k !== undefined) return k
  throw new InvalidArgumentError(
    `'${s}' is not a decoder: use one of ${DECODER_NAMES.join(', ')} (or a Kafka decoder class name)`,
  )
}

/** `--kafka-version 4.4` or `4.4.0`: a supported Kafka release (patch numbers are accepted and ignored) */
export function parseKafkaVersion(s: string): KafkaRelease {
  const r = parseKafkaRelease(s)
  if (r === undefined)
    throw new InvalidArgumentError(
      `'${s}' is not a supported Kafka release: use one of ${KAFKA_RELEASES.join(', ')} (a patch release such as 4.4.0 is accepted)`,
    )
  return r
}

/** minutes (fractions allowed), e.g. --max-transaction-timeout */
export function parseMinutes(s: string): number {
  const n = Number(s)
  if (s.trim() === '' || !Number.isFinite(n) || n < 0)
    throw new InvalidArgumentError(`'${s}' is not a non-negative number of minutes`)
  return n
}

/** --start-offset, --end-offset: an offset (a whole number from 0 to 2^63 - 1) */
export function parseOffset(s: string): bigint {
  const v = s.trim()
  if (!/^\d+$/.test(v) || BigInt(v) > 9223372036854775807n)
    throw new InvalidArgumentError(`'${s}' is not an offset (a whole number from 0)`)
  return BigInt(v)
}

/** --producer-id: a producer id (0 to 2^63 - 1; -1, "no producer", is not one to filter by) */
export function parseProducerId(s: string): bigint {
  const v = s.trim()
  if (!/^\d+$/.test(v) || BigInt(v) > 9223372036854775807n)
    throw new InvalidArgumentError(`'${s}' is not a producer id (a whole number from 0)`)
  return BigInt(v)
}

/** The filter flags as commander hands them over (cli/filter-options.ts adds them to a command). */
export interface RawFilterFlags {
  startOffset?: bigint
  endOffset?: bigint
  fromTime?: number
  toTime?: number
  producerId?: bigint
  transactionalId?: string
}

/** --remote-storage, shared by every command that reads partitions (tiered storage, KIP-405) */
const REMOTE_STORAGE_FLAGS = '--remote-storage <dir|s3://bucket/prefix>'
const REMOTE_STORAGE_HELP =
  "tiered storage (Kafka's LocalTieredStorage or Aiven's plugin): read each partition's remote segments before its local ones; s3:// uses the AWS SDK's default credentials and AWS_ENDPOINT_URL"

/** the storage's layout, its key prefix and the key of Aiven's encryption (with --remote-storage) */
const REMOTE_LAYOUT_FLAGS = '--remote-layout <local-tiered|aiven>'
const REMOTE_LAYOUT_HELP = "the remote storage's object layout (default: the one its object names show)"
const REMOTE_PREFIX_FLAGS = '--remote-prefix <prefix>'
const REMOTE_PREFIX_HELP = "Aiven's key.prefix, when the objects' names do not show it"
const REMOTE_KEY_FLAGS = '--remote-key <pem>'
const REMOTE_KEY_HELP = `the RSA private key that decrypts Aiven's encrypted segments (or ${REMOTE_KEY_ENV})`

const REMOTE_CONCURRENCY_FLAGS = '--remote-concurrency <n>'
const REMOTE_CONCURRENCY_HELP = `S3: ranged GETs in flight at once, across segments (default ${DEFAULT_REMOTE_CONCURRENCY}, at most ${MAX_REMOTE_CONCURRENCY})`

/**
 * --remote-storage and the options that say how to read it, in the order every command lists them; `storageRequired`:
 * the storage is what the command is about (`remote`), with this help text
 */
export function addRemoteOptions(cmd: Command, { storageRequired }: { storageRequired?: string } = {}): Command {
  if (storageRequired === undefined) cmd.option(REMOTE_STORAGE_FLAGS, REMOTE_STORAGE_HELP)
  else cmd.requiredOption(REMOTE_STORAGE_FLAGS, storageRequired)
  return cmd
    .option(REMOTE_LAYOUT_FLAGS, REMOTE_LAYOUT_HELP, parseRemoteLayout)
    .option(REMOTE_PREFIX_FLAGS, REMOTE_PREFIX_HELP)
    .option(REMOTE_KEY_FLAGS, REMOTE_KEY_HELP)
    .option(REMOTE_CONCURRENCY_FLAGS, REMOTE_CONCURRENCY_HELP, parseRemoteConcurrency)
}

export function parseRemoteConcurrency(v: string): number {
  const n = Number(v)
  if (!Number.isInteger(n) || n < 1 || n > MAX_REMOTE_CONCURRENCY)
    throw new InvalidArgumentError(`expected an integer from 1 to ${MAX_REMOTE_CONCURRENCY}`)
  return n
}

export function parseRemoteLayout(v: string): RemoteLayoutName {
  if (!(REMOTE_LAYOUTS as readonly string[]).includes(v))
    throw new InvalidArgumentError(`expected one of ${REMOTE_LAYOUTS.join(', ')}`)
  return v as RemoteLayoutName
}

/** the remote storage the flags describe */
export function remoteOf(o: { remoteStorage?: string }): RemoteSpec {
  const f = o as {
    remoteStorage: string
    remoteLayout?: RemoteLayoutName
    remotePrefix?: string
    remoteKey?: string
    remoteConcurrency?: number
  }
  return {
    storage: f.remoteStorage,
    ...(f.remoteLayout !== undefined ? { layout: f.remoteLayout } : {}),
    ...(f.remoteConcurrency !== undefined ? { concurrency: f.remoteConcurrency } : {}),
    ...(f.remotePrefix !== undefined ? { prefix: f.remotePrefix } : {}),
    ...(f.remoteKey !== undefined ? { keyFile: f.remoteKey } : {}),
  }
}

/** how a partition command prints, from its --json, --no-color and --wide flags */
export function printOf(o: { json?: boolean; color?: boolean; wide?: boolean }): {
  format: 'text' | 'json'
  color: boolean
  wide: boolean
} {
  return { format: o.json === true ? 'json' : 'text', color: o.color !== false, wide: o.wide === true }
}

/** the library option of --remote-storage and its companions, when it is given */
export function remoteOptionOf(o: { remoteStorage?: string }): { remote?: RemoteSpec } {
  return o.remoteStorage !== undefined ? { remote: remoteOf(o) } : {}
}

/** --no-resync for the partition commands (dump has its own): the scan stops at framing damage */
export const NO_RESYNC_FLAGS = '--no-resync'
export const NO_RESYNC_HELP =
  "stop at framing damage, as Kafka's reader does, instead of going on at the next valid batch as the dump does"
/** the library option of --no-resync's flag (commander sets resync false when it is given) */
export function resyncOf(o: { resync?: boolean }): { resync?: false } {
  return o.resync === false ? { resync: false } : {}
}
