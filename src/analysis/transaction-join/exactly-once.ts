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
import { runLabel } from './join.js'

/** `topic-partition`, the text join.ts' runLabel keeps for each (not a string made per commit) */
const tp = (c: { topic: string; partition: number }): string => runLabel(c)
/** commits of one transaction past which its groups are told apart by a Set */
const FEW_COMMITS = 8

export function exactlyOnce(
  txs: readonly JoinedTransaction[],
  commits: Iterable<readonly OffsetCommitRecord[]>,
): { producers: ProducerOffsets[]; findings: Finding[] } {
  const tally = new ExactlyOnceTally()
  for (const t of txs) tally.add(t)
  return tally.finish(commits)
}

/**
 * The commits made outside any transaction (commitSync) that both findings compare a producer's transactions with:
 * none, and the check has nothing to find whatever the transactions are
 */
export function commitsOutside(commits: Iterable<readonly OffsetCommitRecord[]>): OffsetCommitRecord[] {
  const plain: OffsetCommitRecord[] = []
  for (const cs of commits) for (const c of cs) if (!c.transactional && c.offset !== null) plain.push(c)
  return plain
}

/** per producer; the maps only once it carries offsets or a second producer id (a million one-transaction producers hold none) */
interface Tally<P> {
  /** its first transaction's place in the listed order, when they come in another */
  first: P | undefined
  id: string | null
  firstPid: bigint
  transactions: number
  withOutput: number
  groups: Map<string, number> | null
  inputs: Map<string, Set<string>> | null
  pids: Set<bigint> | null
  from: bigint | null
  to: bigint | null
}

/**
 * producers checked at the most (a million one-transaction producers took the tally to 795 MiB): the transactions
 * of those past them are counted, not checked, and the output says so, as other capped lists do
 */
export const MAX_CHECKED_PRODUCERS = 10_000

/**
 * The same check over transactions handed one at a time: per producer only its counts are kept. In their listed
 * order, or in any order with each one's place in it (`before` orders the places): the producers are then taken in
 * the order of their first transaction, as the listed order would have met them; past `max` producers which ones
 * are checked depends on that order, so such a tally says it is not `complete`.
 */
export class ExactlyOnceTally<P = never> {
  private readonly byProducer = new Map<string, Tally<P>>()
  /** transactions of producers past MAX_CHECKED_PRODUCERS */
  private notChecked = 0

  constructor(
    private readonly max = MAX_CHECKED_PRODUCERS,
    private readonly before?: (a: P, b: P) => boolean,
  ) {}

  /** no producer was left unchecked */
  get complete(): boolean {
    return this.notChecked === 0
  }

  add(t: JoinedTransaction, place?: P): void {
    const k = t.transactionalId ?? `pid ${t.producerId}`
    let g = this.byProducer.get(k)
    if (g === undefined) {
      if (this.byProducer.size >= this.max) {
        this.notChecked++
        return
      }
      g = {
        first: place,
        id: t.transactionalId,
        firstPid: t.producerId,
        transactions: 0,
        withOutput: 0,
        groups: null,
        inputs: null,
        pids: null,
        from: null,
        to: null,
      }
      this.byProducer.set(k, g)
    } else if (place !== undefined && this.before!(place, g.first!)) g.first = place
    g.transactions++
    if (t.producerId !== g.firstPid) (g.pids ??= new Set([g.firstPid])).add(t.producerId)
    if (t.offsetCommits.length > 0) {
      const groups = (g.groups ??= new Map())
      const inputs = (g.inputs ??= new Map())
      const cs = t.offsetCommits
      // each group counted once per transaction, at its first commit (as a Set of the groups would take them);
      // the few commits of a transaction looked back over, not a Set made per transaction
      const seen = cs.length > FEW_COMMITS ? new Set<string>() : null
      for (let i = 0; i < cs.length; i++) {
        const grp = cs[i]!.group
        let first = true
        if (seen !== null) {
          first = !seen.has(grp)
          seen.add(grp)
        } else for (let j = 0; j < i && first; j++) first = cs[j]!.group !== grp
        if (first) groups.set(grp, (groups.get(grp) ?? 0) + 1)
      }
      for (const c of cs) {
        let s = inputs.get(c.group)
        if (s === undefined) {
          s = new Set()
          inputs.set(c.group, s)
        }
        s.add(tp(c))
      }
    }
    if (t.runs.some((r) => r.topic !== '__consumer_offsets' && r.records > 0)) g.withOutput++
    if (t.firstTimestamp !== null && (g.from === null || t.firstTimestamp < g.from)) g.from = t.firstTimestamp
    if (t.lastTimestamp !== null && (g.to === null || t.lastTimestamp > g.to)) g.to = t.lastTimestamp
  }

  finish(commits: Iterable<readonly OffsetCommitRecord[]>): {
    producers: ProducerOffsets[]
    findings: Finding[]
    notCheckedTransactions: number
  } {
    const plain = commitsOutside(commits)
    const producers: ProducerOffsets[] = []
    const findings: Finding[] = []
    const tallies = [...this.byProducer.values()]
    if (this.before !== undefined) tallies.sort((a, b) => (this.before!(a.first!, b.first!) ? -1 : 1))
    for (const g of tallies) {
      const id = g.id
      const who = id ?? `producer ${g.firstPid}`
      const groups = g.groups ?? new Map<string, number>()
      const { withOutput } = g
      const mixed: ProducerOffsets['mixedCommits'] = []
      for (const grp of [...groups.keys()].sort()) {
        const inputs = g.inputs?.get(grp) ?? new Set<string>()
        const outside = plain.filter((c) => c.group === grp && inputs.has(tp(c)))
        if (outside.length === 0) continue
        const partitions = [...new Set(outside.map(tp))].sort()
        mixed.push({ group: grp, partitions, plainCommits: outside.length })
        findings.push(
          finding(
            'EOS_MIXED_COMMITS',
            `${who} carries group ${grp}'s offsets in its transactions, and ${outside.length} commit${outside.length === 1 ? '' : 's'} of ${grp} for ${partitions.join(', ')} ` +
              'were made outside any transaction: the group can move past output a later abort discards, or stay behind committed output, so a restart after a crash skips or repeats input',
            { file: outside[0]!.file, position: outside[0]!.position },
          ),
        )
      }
      const noOffsets = withOutput > 0 && groups.size === 0
      const advancing: ProducerOffsets['groupsAdvancingOutside'] = []
      if (noOffsets) {
        const { from, to } = g
        const during = from === null || to === null ? [] : plain.filter((c) => c.timestamp >= from && c.timestamp <= to)
        const counts = new Map<string, number>()
        for (const c of during) counts.set(c.group, (counts.get(c.group) ?? 0) + 1)
        for (const [group, n] of [...counts].sort()) advancing.push({ group, commits: n })
        // only with a group advancing meanwhile: a producer without input (a source, a Flink sink keeping its position in checkpoints) is no fault
        if (advancing.length > 0) {
          findings.push(
            finding(
              'EOS_NO_OFFSETS',
              `${who}: ${withOutput} transaction${withOutput === 1 ? '' : 's'} wrote output and none carried offsets (no sendOffsetsToTransaction), ` +
                `while group${advancing.length === 1 ? '' : 's'} ${advancing.map((a) => a.group).join(', ')} committed offsets outside transactions: if that is its input, the position is committed ` +
                'apart from the output, so a restart after a crash between the two processes that input again',
              { file: during[0]!.file, position: during[0]!.position },
            ),
          )
        }
      }
      producers.push({
        transactionalId: id,
        producerIds: g.pids === null ? [g.firstPid] : [...g.pids].sort((a, b) => (a < b ? -1 : 1)),
        transactions: g.transactions,
        withOutput,
        groups: [...groups].sort().map(([group, n]) => ({ group, transactions: n })),
        mixedCommits: mixed,
        noOffsets,
        groupsAdvancingOutside: advancing,
      })
    }
    producers.sort((a, b) => ((a.transactionalId ?? '') < (b.transactionalId ?? '') ? -1 : 1))
    return { producers, findings, notCheckedTransactions: this.notChecked }
  }
}
