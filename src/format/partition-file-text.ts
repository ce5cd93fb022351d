// The partition-level text files `tsdump dump` prints (kafka-dump-log reads none of them): leader-epoch-checkpoint,
// partition.metadata, meta.properties and the offset checkpoints of a log directory. What the file holds, as
// values; the checks are findings, reported beside it. A checkpoint's entries come as an iterable read from
// the file as they are printed (a checkpoint can hold millions of lines), with the count the file declares.

export type PartitionFileContent =
  | {
      type: 'leader-epoch-checkpoint'
      version: number
      count: number
      entries: Iterable<{ epoch: number; startOffset: bigint }>
    }
  | { type: 'partition.metadata'; version: number; topicId: string }
  | { type: 'meta.properties'; properties: Array<[string, string]> }
  | {
      type: 'offset-checkpoint'
      name: string
      version: number
      count: number
      entries: Iterable<{ topic: string; partition: number; offset: bigint }>
    }

/** the text lines: a head line naming what the file is, then one line per entry */
export function* partitionFileLines(c: PartitionFileContent): Generator<string> {
  switch (c.type) {
    case 'leader-epoch-checkpoint':
      yield `leader epoch cache version: ${c.version} entries: ${c.count}`
      for (const e of c.entries) yield `epoch: ${e.epoch} startOffset: ${e.startOffset}`
      return
    case 'partition.metadata':
      yield `partition metadata version: ${c.version} topicId: ${c.topicId}`
      return
    case 'meta.properties':
      yield 'broker properties'
      for (const [k, v] of c.properties) yield `${k}: ${v}`
      return
    case 'offset-checkpoint':
      yield `${c.name} version: ${c.version} entries: ${c.count}`
      for (const e of c.entries) yield `topic: ${e.topic} partition: ${e.partition} offset: ${e.offset}`
  }
}

/** the JSON objects' fields but the entries (bigints become numbers or strings in the printer), and the entries, written after them */
export function partitionFileFields(c: PartitionFileContent): {
  fields: Record<string, unknown>
  entries: Iterable<unknown> | null
} {
  switch (c.type) {
    case 'leader-epoch-checkpoint':
      return { fields: { fileType: c.type, version: c.version }, entries: c.entries }
    case 'partition.metadata':
      return { fields: { fileType: c.type, version: c.version, topicId: c.topicId }, entries: null }
    case 'meta.properties':
      return { fields: { fileType: c.type, properties: Object.fromEntries(c.properties) }, entries: null }
    case 'offset-checkpoint':
      return { fields: { fileType: c.name, version: c.version }, entries: c.entries }
  }
}
