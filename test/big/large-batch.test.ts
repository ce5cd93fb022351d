// Issue #14's bound at full size: one 512 MiB batch, shallow dump, under 128 MiB peak RSS (it was 576 MiB
// when the batch was loaded whole for its CRC). Sparse file, deleted after.
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runMeasured, writeSparseBatch } from '../support/big-batch.js'
import { rmrf, tmp } from '../hostile/support.js'

const dir = tmp('tsdump-big-batch-')
afterAll(() => rmrf(dir))

describe('one 512 MiB batch', () => {
  it('shallow dump: CRC verified, peak RSS < 128 MiB', () => {
    const file = path.join(dir, '00000000000000000000.log')
    writeSparseBatch(file, 512 * 1024 * 1024)
    const r = runMeasured([file])
    expect(r.code, r.stderr).toBe(0)
    expect(r.stdout).toContain('isvalid: true')
    expect(r.maxRssMiB).toBeLessThan(128)
  })
})
