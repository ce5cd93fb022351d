// A coordinator topic's partition count (analysis/coordinator.ts coordinatorPartitionCount) from the metadata log's
// PartitionRecords, else the directories present, else unknown; never an assumed 50. Truth: the kraft fixture's
// expected.json (the broker's describeTopics: metadataTopics, deletedTopics), the orders broker's configuration
// (scripts/kafka/start.sh transaction.state.log.num.partitions=3) and kafka-dump-log's text of __transaction_state-2,
// which holds tx-rw-1's records; Kafka's rule is TransactionStateManager.partitionFor.
import * as fs from 'node:fs'
import * as path from 'node:path'
import { describe, expect, it } from 'vitest'
import { coordinatorPartitionCount, transactionStatePartitionFor } from '../../src/analysis/coordinator.js'
import { discover } from '../../src/io/discover.js'
import { coordinatorPartitionCountOf, readPartitionCounts } from '../../src/scan/metadata-partitions.js'
import { runCli } from '../support/run-cli.js'
import { FIXTURES, REPO_ROOT } from '../support/paths.js'

describe('coordinator partition counts', () => {
  it("the metadata log: each topic's PartitionRecords, deleted topics gone (the broker's describeTopics)", () => {
    const dir = path.join(FIXTURES, 'kraft')
    const e = JSON.parse(fs.readFileSync(path.join(dir, 'expected.json'), 'utf8')) as {
      extra: { metadataTopics: Array<{ topic: string; partitions: number }>; deletedTopics: string[] }
    }
    expect(e.extra.metadataTopics.length).toBeGreaterThan(0)
    const c = readPartitionCounts(discover([path.join(dir, 'logs', '__cluster_metadata-0')]).partitions[0]!)
    for (const t of e.extra.metadataTopics) expect(c.counts.get(t.topic), t.topic).toBe(t.partitions)
    for (const t of e.extra.deletedTopics) expect(c.counts.has(t), t).toBe(false)
    expect(c.findings.listed).toEqual([])
    // the rule takes the metadata count before the directories present
    const a = e.extra.metadataTopics[0]!
    expect(
      coordinatorPartitionCount(a.topic, { metadata: { path: c.path, count: c.counts.get(a.topic)! }, present: [0] }),
    ).toMatchObject({ count: a.partitions, source: 'metadata', atLeast: false })
  })

  it('without metadata: the highest directory present + 1, as a lower bound; none: unknown, never 50', () => {
    expect(coordinatorPartitionCount('__transaction_state', { present: [2] })).toMatchObject({
      count: 3,
      source: 'directories',
      atLeast: true,
    })
    expect(coordinatorPartitionCount('__transaction_state', { present: [] })).toBeNull()
    expect(coordinatorPartitionCount('__transaction_state', { option: 50, present: [2] })).toMatchObject({
      count: 50,
      source: 'option',
    })
    // the kraft broker's metadata log has no __transaction_state topic, and no such directory is there
    expect(coordinatorPartitionCountOf('__transaction_state', [path.join(FIXTURES, 'kraft', 'logs')])).toBeNull()
  })

  it('lso --transactional-id tx-rw-1 on the orders broker names __transaction_state-2, where its records are', async () => {
    const start = fs.readFileSync(path.join(REPO_ROOT, 'scripts', 'kafka', 'start.sh'), 'utf8')
    const configured = Number(/^transaction\.state\.log\.num\.partitions=(\d+)$/m.exec(start)![1])
    const dump = fs.readFileSync(
      path.join(FIXTURES, 'orders', 'dump', '__transaction_state-2', '00000000000000000000.log.data.txt'),
      'latin1',
    )
    expect(dump).toMatch(/key: [^\n]*tx-rw-1 payload/)
    expect(transactionStatePartitionFor('tx-rw-1', configured)).toBe(2)
    const logs = path.join(FIXTURES, 'orders', 'logs')
    for (const p of [logs, path.join(logs, 'orders-11-0')]) {
      const r = await runCli(['lso', '--json', '--now', '0', '--transactional-id', 'tx-rw-1', p])
      const c = JSON.parse(r.stdout).coordinator
      expect(c, p).toMatchObject({
        partition: 2,
        partitionCount: configured,
        topicPartition: '__transaction_state-2',
        partitionCountFrom: { source: 'directories', atLeast: true },
      })
    }
    const text = (await runCli(['lso', '--now', '0', '--transactional-id', 'tx-rw-1', logs])).stdout.replace(
      /\s+/g,
      ' ',
    )
    expect(text).toContain(
      'is coordinated by __transaction_state-2 (abs(hashCode -943186862) % 3; 3 partitions at least, from the __transaction_state directories present',
    )
    // the explicit override stays
    const o = JSON.parse(
      (
        await runCli([
          'lso',
          '--json',
          '--now',
          '0',
          '--transaction-state-partitions',
          '50',
          '--transactional-id',
          'tx-rw-1',
          logs,
        ])
      ).stdout,
    ).coordinator
    expect(o).toMatchObject({ partition: 12, partitionCount: 50, partitionCountFrom: { source: 'option' } })
  })

  it('nothing to count from: lso says the partition is unknown and how to give it', async () => {
    const r = await runCli(['lso', '--now', '0', '--transactional-id', 'tx-rw-1', path.join(FIXTURES, 'kraft', 'logs')])
    expect(r.stdout.replace(/\s+/g, ' ')).toContain('its coordinator partition is unknown')
    expect(r.stdout).not.toMatch(/% 50/)
  })
})
