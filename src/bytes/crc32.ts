// CRC-32 (IEEE), used by legacy magic 0/1 messages. node:zlib has it since Node 20.15.
// node:zlib is loaded at the first legacy message, not at import: it cost every start-up about 2 ms
// (bench/RESULTS-startup.md), and magic 0/1 messages are rare.
import { createRequire } from 'node:module'

type Crc32 = (data: Uint8Array, value?: number) => number
let zcrc: Crc32 | null | undefined

/** CRC-32/IEEE of `data`, unsigned. */
export function crc32(data: Uint8Array): number {
  zcrc ??= (createRequire(import.meta.url)('node:zlib') as { crc32?: Crc32 }).crc32 ?? null
  if (zcrc !== null) return zcrc(data, 0) >>> 0
  return crc32Slow(data)
}

let table: Uint32Array | undefined

function crc32Slow(data: Uint8Array): number {
  if (table === undefined) {
    table = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? 0xedb88320 ^ (c >>> 1) : c >>> 1
      table[n] = c >>> 0
    }
  }
  let crc = 0xffffffff
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xff]! ^ (crc >>> 8)
  return (crc ^ 0xffffffff) >>> 0
}
