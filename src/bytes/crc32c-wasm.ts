// CRC-32C in WebAssembly (scripts/wasm/crc32c.wat, slicing-by-16): the fast path that needs no native install.
// WebAssembly can only read its own memory, so each call copies the bytes into the module's input window
// (a memcpy, ~10x faster than the CRC itself) in pieces of at most INPUT_SIZE; memory never grows.
import { CRC32C_WASM_BASE64 } from './crc32c-wasm-module.js'

// The project compiles with lib ES2022 only (no DOM types), where WebAssembly is not declared: the little used here.
declare const WebAssembly: {
  Module: new (bytes: Uint8Array) => object
  Instance: new (module: object, imports: object) => { exports: unknown }
}

interface Exports {
  memory: { buffer: ArrayBuffer }
  INPUT_BASE: { value: number }
  INPUT_SIZE: { value: number }
  init(): void
  crc(previous: number, ptr: number, len: number): number
}

/** Continue CRC-32C `previous` (0 to start) over `data`; unsigned. undefined when WebAssembly is unavailable. */
export type Crc32cUpdate = (previous: number, data: Uint8Array) => number

export function loadWasmCrc32c(): Crc32cUpdate | undefined {
  let ex: Exports
  try {
    // synchronous compile: the module is 600 bytes, this costs well under a millisecond at start-up
    const mod = new WebAssembly.Module(Buffer.from(CRC32C_WASM_BASE64, 'base64'))
    ex = new WebAssembly.Instance(mod, {}).exports as unknown as Exports
    ex.init()
  } catch {
    return undefined // a runtime without WebAssembly (e.g. --jitless): callers fall back to JS
  }
  const base = ex.INPUT_BASE.value
  const size = ex.INPUT_SIZE.value
  const window = new Uint8Array(ex.memory.buffer, base, size)
  const crc = ex.crc
  return (previous, data) => {
    let c = previous
    for (let off = 0; off < data.length; off += size) {
      const n = Math.min(size, data.length - off)
      window.set(n === data.length ? data : data.subarray(off, off + n))
      c = crc(c, base, n)
    }
    return c >>> 0
  }
}
