// A log dir of P partitions of S remote segments each (Kafka's LocalTieredStorage layout, no __remote_log_metadata:
// the segments are found by listing) and one local segment above them: the input of bench/remote-concurrency.mjs
// --segments and of test/big/remote-s3-scale.test.ts. Each segment is one batch, the tiered fixture's batch of offsets
// 7..8 (fixtures/broker-4.4/tiered, tiered-0's remote segment 5 at position 129, 129 bytes: kafka-dump-log's stored
// text of it says 2 records, not transactional), its baseOffset rewritten (outside the CRC): remote segment i holds
// offsets 2i..2i+1, the local segment 2S..2S+1.
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
const FIXTURE = path.join(repo, 'fixtures', 'broker-4.4', 'tiered')

/**
 * `dir`/logs (the log dir) and `dir`/remote (the storage's tree) for `partitions` x `segments`; `expected`: what a
 * consumer reads of each partition, by the generator's own count (2 records a batch, none transactional: read
 * committed and uncommitted alike), and the log end offset
 */
export function remoteSegmentsTree(dir, { partitions: P, segments: S }) {
  const logs = path.join(dir, 'logs')
  const remote = path.join(dir, 'remote')
  const root = path.join(FIXTURE, 'remote', 'kafka-tiered-storage')
  const src = fs.readdirSync(root).find((d) => /^tiered-0-/.test(d))
  const topicId = src.slice('tiered-0-'.length)
  const seg5 = fs
    .readdirSync(path.join(root, src))
    .find((f) => f.startsWith('00000000000000000005-') && f.endsWith('.log'))
  // the batch of offsets 7..8: position 129, 129 bytes (kafka-dump-log's stored text of the segment)
  const batch = fs.readFileSync(path.join(root, src, seg5)).subarray(129, 258)
  const at = (offset) => {
    const b = Buffer.from(batch)
    b.writeBigInt64BE(BigInt(offset), 0)
    return b
  }
  const id = (n) => Buffer.from(n.toString(16).padStart(32, '0'), 'hex').toString('base64url')
  const starts = []
  for (let p = 0; p < P; p++) {
    const pd = path.join(logs, `tiered-${p}`)
    fs.mkdirSync(pd, { recursive: true })
    fs.copyFileSync(path.join(FIXTURE, 'logs', 'tiered-0', 'partition.metadata'), path.join(pd, 'partition.metadata'))
    fs.writeFileSync(path.join(pd, 'leader-epoch-checkpoint'), '0\n1\n0 0\n')
    fs.writeFileSync(path.join(pd, `${String(2 * S).padStart(20, '0')}.log`), at(2 * S))
    const rd = path.join(remote, `tiered-${p}-${topicId}`)
    fs.mkdirSync(rd, { recursive: true })
    for (let i = 0; i < S; i++)
      fs.writeFileSync(path.join(rd, `${String(2 * i).padStart(20, '0')}-${id(p * 1e6 + i + 1)}.log`), at(2 * i))
    starts.push(`tiered ${p} 0`)
  }
  const hw = starts.map((x) => x.replace(/ 0$/, ` ${2 * S + 2}`))
  fs.writeFileSync(path.join(logs, 'log-start-offset-checkpoint'), `${['0', String(P), ...starts].join('\n')}\n`)
  fs.writeFileSync(path.join(logs, 'replication-offset-checkpoint'), `${['0', String(P), ...hw].join('\n')}\n`)
  const records = 2 * (S + 1)
  return {
    logs,
    remote,
    objects: P * S,
    expected: {
      topic: 'tiered',
      partitions: P,
      readCommitted: records,
      readUncommitted: records,
      logEndOffset: records,
    },
  }
}
