// Exactly-once for read-process-write applications: a transactional producer whose transactions carry its
// input group's offsets (sendOffsetsToTransaction, a TxnOffsetCommit in the same transaction) commits output and
// input position atomically. A group whose offsets are also committed outside transactions (commitSync) can move
// past output that a later abort discards, or stay behind output that committed: after a crash the input is
// processed again (GroupCoordinator's pending transactional offsets vs. plain commits). A producer whose
// transactions write output but never carry offsets leaves the input position to the consumer's own commits,
// which a crash between the two loses: a restart processes that input again.
import { finding } from '../findings.js'
import type { Finding } from '../findings.js'
import type { JoinedTransaction, OffsetCommitRecord, ProducerOffsets } from './types.js'


const tp = (c: { topic: string, partition: number }): string => `${c.topic}-${c.partition}`

export function exactlyOnce (txs: readonly JoinedTransaction[], commits: Iterable<readonly OffsetCommitRecord[]>): { producers: ProducerOffsets[], findings: Finding[] } {
  const plain: OffsetCommitRecord[] = []
  for (const cs of commits) for (const c of cs) if (!c.transactional && c.offset !== null) plain.push(c)
  const byProducer = new Map<string, JoinedTransaction[]>()
  for (const t of txs) {
    const k = t.transactionalId ?? `pid ${t.producerId}`
    let g = byProducer.get(k)
    if (g === undefined) { g = []; byProducer.set(k, g) }
    g.push(t)
  }
  const producers: ProducerOffsets[] = []
  const findings: Finding[] = []
  for (const [, ts] of byProducer) {
    const id = ts[0]!.transactionalId
    const who = id ?? `producer ${ts[0]!.producerId}`
    const groups = new Map<string, number>()
    for (const t of ts) for (const g of new Set(t.offsetCommits.map((c) => c.group))) groups.set(g, (groups.get(g) ?? 0) + 1)
    const withOutput = ts.filter((t) => t.runs.some((r) => r.topic !== '__consumer_offsets' && r.records > 0)).length
    const mixed: ProducerOffsets['mixedCommits'] = []
    for (const g of [...groups.keys()].sort()) {
      const inputs = new Set(ts.flatMap((t) => t.offsetCommits.filter((c) => c.group === g).map(tp)))
      const outside = plain.filter((c) => c.group === g && inputs.has(tp(c)))
      if (outside.length === 0) continue
      const partitions = [...new Set(outside.map(tp))].sort()
      mixed.push({ group: g, partitions, plainCommits: outside.length })
      findings.push(finding('EOS_MIXED_COMMITS', `${who} carries group ${g}'s offsets in its transactions, and ${outside.length} commit${outside.length === 1 ? '' : 's'} of ${g} for ${partitions.join(', ')} ` +
        'were made outside any transaction: the group can move past output a later abort discards, or stay behind committed output, so a restart after a crash skips or repeats input',
      { file: outside[0]!.file, position: outside[0]!.position }))
    }
    const noOffsets = withOutput > 0 && groups.size === 0
    const advancing: ProducerOffsets['groupsAdvancingOutside'] = []
    if (noOffsets) {
      const from = ts.reduce<bigint | null>((m, t) => (t.firstTimestamp !== null && (m === null || t.firstTimestamp < m) ? t.firstTimestamp : m), null)
      const to = ts.reduce<bigint | null>((m, t) => (t.lastTimestamp !== null && (m === null || t.lastTimestamp > m) ? t.lastTimestamp : m), null)
      const during = from === null || to === null ? [] : plain.filter((c) => c.timestamp >= from && c.timestamp <= to)
      const counts = new Map<string, number>()
      for (const c of during) counts.set(c.group, (counts.get(c.group) ?? 0) + 1)
      for (const [group, n] of [...counts].sort()) advancing.push({ group, commits: n })
      // only with a group advancing meanwhile: a producer without input (a source, a Flink sink keeping its position in checkpoints) is no fault
      if (advancing.length > 0) {
        findings.push(finding('EOS_NO_OFFSETS', `${who}: ${withOutput} transaction${withOutput === 1 ? '' : 's'} wrote output and none carried offsets (no sendOffsetsToTransaction), ` +
          `while group${advancing.length === 1 ? '' : 's'} ${advancing.map((a) => a.group).join(', ')} committed offsets outside transactions: if that is its input, the position is committed ` +
          'apart from the output, so a restart after a crash between the two processes that input again', { file: during[0]!.file, position: during[0]!.position }))
      }
    }
    producers.push({ transactionalId: id, producerIds: [...new Set(ts.map((t) => t.producerId))].sort((a, b) => (a < b ? -1 : 1)), transactions: ts.length, withOutput,
      groups: [...groups].sort().map(([group, n]) => ({ group, transactions: n })), mixedCommits: mixed, noOffsets, groupsAdvancingOutside: advancing })
  }
  producers.sort((a, b) => ((a.transactionalId ?? '') < (b.transactionalId ?? '') ? -1 : 1))
  return { producers, findings }
}
