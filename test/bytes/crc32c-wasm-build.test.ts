import { describe, expect, it } from 'vitest'
import fs from 'node:fs'
import { createRequire } from 'node:module'

// The WebAssembly CRC is committed as generated TypeScript (src/bytes/crc32c-wasm-module.ts) so that installing
// tsdump needs no toolchain. This proves the committed bytes are what scripts/wasm/crc32c.wat assembles to.
const require = createRequire(import.meta.url)
let haveWabt = true
try {
  require.resolve('wabt')
} catch {
  haveWabt = false
}
if (!haveWabt) console.log('crc32c-wasm-build.test: the wabt package is not installed, so the .wat is not re-assembled')

describe('WebAssembly CRC-32C module', () => {
  it.skipIf(!haveWabt)('the committed module is what scripts/wasm/crc32c.wat assembles to', async () => {
    const build = (await import('../../scripts/wasm/build.mjs')) as { generate(): Promise<string>; OUT: string }
    expect(fs.readFileSync(build.OUT, 'utf8')).toBe(await build.generate())
  })
})
