// cleanup.policy where no config gives it (no __cluster_metadata among the paths or beside them): a partition the
// log dir's cleaner-offset-checkpoint lists was compacted by the broker (only a compacting cleaner writes an entry),
// else the policy is unknown and cleanup says what it does not predict. Truth: the brokers' own checkpoint files (read
// here without tsdump) and what the fixture's broker was configured with (expected.json).
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { cleanup, runCleanup } from '../../src/commands/cleanup.js'
import { runCommand } from '../support/txn-segment-builder.js'
import { REPO_ROOT } from '../support/paths.js'

const COMPACTED = path.join(REPO_ROOT, 'fixtures/broker/compacted')
const LOG_START = path.join(REPO_ROOT, 'fixtures/broker-4.4/log-start/logs')
const NOW = Date.parse('2026-12-06T15:00:00Z')
const entries = (logDir: string): string[] =>
  fs.readFileSync(path.join(logDir, 'cleaner-offset-checkpoint'), 'utf8').trim().split('\n').slice(2)

describe('cleanup.policy without the metadata log', () => {
  it('compacted (Kafka 3.9.1, cleanup.policy=compact): listed in cleaner-offset-checkpoint, so compact, and says why', async () => {
    const logs = path.join(COMPACTED, 'logs')
    expect(fs.existsSync(path.join(logs, '__cluster_metadata-0'))).toBe(false)
    expect(entries(logs)).toContain('compacted 0 56')
    expect(
      (JSON.parse(fs.readFileSync(path.join(COMPACTED, 'expected.json'), 'utf8')) as { description: string })
        .description,
    ).toMatch(/^cleanup\.policy=compact/)
    const p = cleanup([logs], { now: NOW }).partitions.find((x) => x.label === 'compacted-0')!
    expect(p.configs['cleanup.policy']).toEqual({ value: 'compact', source: 'CLEANER_OFFSET_CHECKPOINT' })
    // the cleaner's next dirty offset is the checkpoint's entry
    expect(p.compaction?.firstDirtyOffset).toBe(56n)
    const r = await runCommand(runCleanup, { paths: [logs], now: NOW })
    expect(r.out).toContain('cleanup.policy=compact (listed in cleaner-offset-checkpoint)')
    expect(r.out).not.toContain('delete (default)')
  })

  it('log-start (Kafka 4.4.0, delete topics): not listed, so unknown, with a finding saying what is not predicted; exit 0', async () => {
    expect(entries(LOG_START)).toEqual([])
    const c = cleanup([LOG_START], { now: NOW })
    for (const p of c.partitions) {
      expect(p.configs['cleanup.policy'], p.label).toEqual({ value: 'unknown', source: 'UNKNOWN' })
      expect(p.compaction, p.label).toBeNull()
      expect(p.retention, p.label).toBeNull()
      const f = p.findings.find((x) => x.code === 'CLEANUP_POLICY_UNKNOWN')
      expect(f?.message, p.label).toMatch(/not predicted.*--config cleanup\.policy/)
      expect(f?.firstOffset, p.label).toBe(p.logStartOffset)
    }
    const r = await runCommand(runCleanup, { paths: [LOG_START], now: NOW })
    expect(r.code).toBe(0)
    expect(r.out).not.toMatch(/\(default\)/)
    expect(r.out).toContain('cleanup.policy=unknown')
  })

  it('--config cleanup.policy and the metadata log still decide (the checkpoint only stands in for them)', () => {
    const c = cleanup([path.join(COMPACTED, 'logs')], { now: NOW, configs: new Map([['cleanup.policy', 'delete']]) })
    expect(c.partitions.find((x) => x.label === 'compacted-0')!.configs['cleanup.policy']).toEqual({
      value: 'delete',
      source: '--config',
    })
    const meta = cleanup([path.join(REPO_ROOT, 'fixtures/broker-4.4/cleanup/before')], { now: NOW })
    expect(meta.metadataLog).not.toBeNull()
    expect(meta.partitions.find((x) => x.label === 'cu-del-size-0')!.configs['cleanup.policy']).toEqual({
      value: 'delete',
      source: 'DYNAMIC_TOPIC_CONFIG',
    })
  })
})
