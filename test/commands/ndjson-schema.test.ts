// NDJSON for machines (issue #12 item 16): a schemaVersion first, topic and partition on every object from a
// partition directory, and --value-decoder json payloads as JSON values.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { runCli } from '../support/run-cli.js'
import { FIXTURES } from '../support/paths.js'
import { encodeBatch } from '../support/segment-builder.js'
import { LogDir } from '../support/txn-segment-builder.js'

const DIR = path.join(FIXTURES, 'orders/logs/orders-11-0')
const d = new LogDir()
afterAll(() => d.remove())
const objects = (s: string): Array<Record<string, unknown>> =>
  s
    .trim()
    .split('\n')
    .map((l) => JSON.parse(l) as Record<string, unknown>)

describe('dump --json', () => {
  it("the first object states the schema version; every object about a partition's file carries topic and partition", async () => {
    const r = await runCli(['--json', '--deep-iteration', DIR])
    const all = objects(r.stdout)
    expect(all[0]).toEqual({ type: 'header', tool: 'tsdump', schemaVersion: 1 })
    const about = all.filter((o) => typeof o.file === 'string' && o.type !== 'skipped')
    expect(new Set(about.map((o) => o.type))).toEqual(
      new Set([
        'file',
        'batch',
        'record',
        'summary',
        'timeindex-entry',
        'txnindex-entry',
        'snapshot-entry',
        'partition-file',
      ]),
    )
    for (const o of about) expect(o, String(o.type)).toMatchObject({ topic: 'orders-11', partition: 0 })
  })
  it('findings carry topic and partition too', async () => {
    const dir = path.join(d.root, 'events-3')
    fs.mkdirSync(dir)
    fs.writeFileSync(
      path.join(dir, '00000000000000000000.log'),
      encodeBatch({ baseOffset: 0, records: [{ key: 'k', value: 'v' }], crc: 'bad' }),
    )
    const f = objects((await runCli(['--json', dir])).stdout).filter((o) => o.type === 'finding')
    expect(f).toMatchObject([{ code: 'CRC_MISMATCH', topic: 'events', partition: 3 }])
  })
  it('--value-decoder json: the payload is a JSON value beside its text', async () => {
    const dir = path.join(d.root, 'json-0')
    fs.mkdirSync(dir)
    fs.writeFileSync(
      path.join(dir, '00000000000000000000.log'),
      encodeBatch({
        baseOffset: 0,
        records: [
          { key: 'k', value: '{"id":7,"tags":["a"]}' },
          { key: 'k', value: 'not json' },
        ],
      }),
    )
    const recs = objects((await runCli(['--json', '--print-data-log', '--value-decoder', 'json', dir])).stdout).filter(
      (o) => o.type === 'record',
    )
    expect(recs[0]!.payloadJson).toEqual({ id: 7, tags: ['a'] })
    expect(recs[1]!.payloadJson).toBeUndefined()
    expect(recs[1]!.payload).toBe('not json')
  })
})

describe('reconcile, txns and lso --json', () => {
  it('each document states the schema version (2: one naming of a partition-level transaction)', async () => {
    for (const cmd of ['reconcile', 'txns', 'lso']) {
      const j = JSON.parse((await runCli([cmd, '--json', DIR])).stdout) as Record<string, unknown>
      expect(j.schemaVersion, cmd).toBe(2)
      expect(Object.keys(j)[0], cmd).toBe('schemaVersion')
    }
  })
})
