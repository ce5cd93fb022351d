// `tsdump remote` against the tiered fixture: every segment's newest state, offsets, epochs, size, broker and event
// time as Kafka's own RemoteLogMetadataFormatter printed them (expected.json tiered.remoteLogMetadata, the console
// consumer on __remote_log_metadata), and the storage as the generator listed it (tiered.remoteTree); then a copy
// of the storage with a finished segment's .log removed and an object no metadata names added.
import fs from 'node:fs'
import path from 'node:path'
import { describe, expect, it } from 'vitest'
import { remoteInventory } from '../../src/commands/remote.js'
import { closeRemoteStores } from '../../src/io/remote/store.js'
import { FIXTURES_44 } from '../support/paths.js'
import { runCli } from '../support/run-cli.js'
import { linesOver } from '../support/width.js'

const FIXTURE = path.join(FIXTURES_44, 'tiered')
const LOGS = path.join(FIXTURE, 'logs')
const REMOTE = path.join(FIXTURE, 'remote')
const tiered = (
  JSON.parse(fs.readFileSync(path.join(FIXTURE, 'expected.json'), 'utf8')) as {
    tiered: {
      remoteLogMetadata: Array<{ lines: string[] }>
      remoteTree: Array<{ path: string; size: number }>
    }
  }
).tiered

interface JavaSegment {
  label: string
  start: number
  end: number
  broker: number
  size: number
  epochs: string
  state: string
  event: number
}
/** the newest state of each segment id, from the Java formatter's toString() lines */
function javaSegments(): Map<string, JavaSegment> {
  const out = new Map<string, JavaSegment>()
  for (const line of tiered.remoteLogMetadata.flatMap((m) => m.lines)) {
    const id = /topicIdPartition=[^:]+:([^,]+), id=([^}]+)\}/.exec(line)!
    const state = /state=(\w+)/.exec(line)![1]!
    const event = Number(/eventTimestampMs=(\d+)/.exec(line)![1])
    if (line.includes('value: RemoteLogSegmentMetadata{')) {
      const n = (k: string): number => Number(new RegExp(`${k}=(\\d+)`).exec(line)![1])
      const epochs = /segmentLeaderEpochs=\{([^}]*)\}/
        .exec(line)![1]!
        .split(', ')
        .map((e) => e.split('='))
        .map(([ep, off]) => `${ep}@${off}`)
        .join(',')
      out.set(id[2]!, {
        label: id[1]!,
        start: n('startOffset'),
        end: n('endOffset'),
        broker: n('brokerId'),
        size: n('segmentSizeInBytes'),
        epochs,
        state,
        event,
      })
    } else {
      const s = out.get(id[2]!)!
      s.state = state
      s.event = event
    }
  }
  return out
}

describe('tsdump remote on the tiered fixture', () => {
  it("lists every segment of the metadata with Kafka's newest state, offsets, epochs, size, broker and event time", () => {
    const r = remoteInventory([LOGS], REMOTE)
    closeRemoteStores()
    expect(r.unusable).toEqual([])
    const java = javaSegments()
    expect(java.size).toBe(9)
    const rows = r.partitions.flatMap((p) => p.segments.map((s) => ({ p, s })))
    expect(rows.map(({ s }) => s.segmentId).sort()).toEqual([...java.keys()].sort())
    for (const { p, s } of rows) {
      const j = java.get(s.segmentId)!
      expect({
        label: `${p.topic}-${p.partition}`,
        start: Number(s.startOffset),
        end: Number(s.endOffset),
        broker: s.brokerId,
        size: s.sizeInBytes,
        epochs: s.leaderEpochs.map((e) => `${e.epoch}@${e.offset}`).join(','),
        state: s.state,
        event: Number(s.eventTimestampMs),
      }).toEqual(j)
    }
  })

  it("joins the storage: a finished segment's STORED size is the broker's object size, a deleted one has none", () => {
    const r = remoteInventory([LOGS], REMOTE)
    closeRemoteStores()
    const sizes = new Map(tiered.remoteTree.map((t) => [path.basename(t.path), t.size]))
    for (const s of r.partitions.flatMap((p) => p.segments)) {
      const name = `${String(s.startOffset).padStart(20, '0')}-${s.segmentId}.log`
      expect(s.storedBytes, name).toBe(sizes.get(name) ?? null)
      expect(s.verdict).toBe(s.state === 'DELETE_SEGMENT_FINISHED' ? 'deleted' : 'ok')
    }
    // tiered-kept kept its copied segments locally: the overlap is said, no gap anywhere
    const codes = r.partitions.flatMap((p) => p.findings.map((f) => `${p.topic}-${p.partition} ${f.code}`))
    expect(codes).toEqual(['tiered-kept-0 REMOTE_OVERLAP'])
  })

  it('text fits 80 columns and exits 0; --json is one object with schemaVersion', async () => {
    const t = await runCli(['remote', LOGS, '--remote-storage', REMOTE])
    closeRemoteStores()
    expect(t.code).toBe(0)
    expect(linesOver(t.stdout, [LOGS, REMOTE])).toEqual([])
    expect(t.stdout).toContain('copied')
    const j = await runCli(['remote', LOGS, '--remote-storage', REMOTE, '--json'])
    closeRemoteStores()
    const o = JSON.parse(j.stdout) as { schemaVersion: number; partitions: unknown[] }
    expect(o.schemaVersion).toBe(1)
    expect(o.partitions).toHaveLength(3)
  })

  it('a finished segment whose .log is gone is MISSING (exit 1), one grown is SIZE_MISMATCH, an object no metadata names is an ORPHAN', async () => {
    const tmp = fs.mkdtempSync(path.join(process.env.TMPDIR ?? '/tmp', 'tsdump-remote-'))
    try {
      fs.cpSync(REMOTE, tmp, { recursive: true, dereference: true })
      const dir = path.join(tmp, 'kafka-tiered-storage', 'tiered-1-r6q9SmMzRPOfHw3OoiAXbA')
      fs.rmSync(path.join(dir, '00000000000000000009-xeKzilAPRomtIUoprUZmYQ.log'))
      fs.writeFileSync(path.join(dir, '00000000000000000030-AAAAAAAAAAAAAAAAAAAAAA.log'), Buffer.alloc(10))
      // segment B of tiered-1 grown by 10 bytes: no longer the size its metadata records
      fs.appendFileSync(path.join(dir, '00000000000000000005-_iUnOibnS3eGjetM3lOBiA.log'), Buffer.alloc(10))
      const r = remoteInventory([LOGS], tmp)
      closeRemoteStores()
      const t1 = r.partitions.find((p) => p.topic === 'tiered' && p.partition === 1)!
      expect(t1.findings.map((f) => f.code).sort()).toEqual([
        'REMOTE_ORPHAN',
        'REMOTE_SEGMENT_MISSING',
        'REMOTE_SIZE_MISMATCH',
      ])
      expect(t1.segments.find((s) => s.segmentId === '_iUnOibnS3eGjetM3lOBiA')?.verdict).toBe('size-mismatch')
      expect(t1.segments.find((s) => s.segmentId === 'xeKzilAPRomtIUoprUZmYQ')?.verdict).toBe('missing')
      expect(t1.segments.find((s) => s.segmentId === 'AAAAAAAAAAAAAAAAAAAAAA')?.verdict).toBe('orphan')
      const cli = await runCli(['remote', LOGS, '--remote-storage', tmp])
      closeRemoteStores()
      expect(cli.code).toBe(1)
      expect(cli.stderr).toContain('[REMOTE_SEGMENT_MISSING]')
      // and reconcile says which segment it could not read, still reading the others
      const rec = await runCli(['reconcile', path.join(LOGS, 'tiered-1'), '--remote-storage', tmp])
      closeRemoteStores()
      expect(rec.code).toBe(1)
      expect(rec.stderr).toContain('00000000000000000009-xeKzilAPRomtIUoprUZmYQ.log')
      expect(rec.stderr).toContain('[REMOTE_SEGMENT_MISSING]')
      expect(rec.stderr).toContain('[REMOTE_SIZE_MISMATCH]')
    } finally {
      fs.rmSync(tmp, { recursive: true, force: true })
    }
  })

  it('an unusable --remote-storage is a usage error (exit 2)', async () => {
    const r = await runCli(['remote', LOGS, '--remote-storage', path.join(FIXTURE, 'no-such-dir')])
    expect(r.code).toBe(2)
    expect(r.stderr).toContain('no-such-dir')
  })
})
