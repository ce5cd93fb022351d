// CRC-32 (IEEE), used by legacy magic 0/1 messages. node:zlib has it since Node 20.15.
import * as zlib from 'node:zlib'

const zcrc = (zlib as unknown as { crc32?: (data: Uint8Array, value?: number) => number }).crc32

/** CRC-32/IEEE of `data`, unsigned. */
export function crc32 (data: Uint8Array): number {
  if (zcrc !== undefined) return zcrc(data, 0) >>> 0
  return crc32Slow(data)
}

let table: Uint32Array | undefined

function crc32Slow (data: Uint8Array): number {
  if (table === undefined) {
    table = new Uint32Array(256)
    for (let n = 0; n < 256; n++) {
      let c = n
      for (let k = 0; k < 8; k++) c = (c & 1) !== 0 ? 0xEDB88320 ^ (c >>> 1) : c >>> 1
      table[n] = c >>> 0
    }
  }
  let crc = 0xFFFFFFFF
  for (let i = 0; i < data.length; i++) crc = table[(crc ^ data[i]!) & 0xFF]! ^ (crc >>> 8)
  return (crc ^ 0xFFFFFFFF) >>> 0
}
