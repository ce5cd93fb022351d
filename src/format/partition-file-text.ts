// The partition-level text files `tsdump dump` prints (kafka-dump-log reads none of them): leader-epoch-checkpoint,
// partition.metadata, meta.properties and the offset checkpoints of a log directory. What the file holds, as
// values; the checks are findings, reported beside it.

export type PartitionFileContent =
  | { type: 'leader-epoch-checkpoint', version: number, entries: Array<{ epoch: number, startOffset: bigint }> }
  | { type: 'partition.metadata', version: number, topicId: string }
  | { type: 'meta.properties', properties: Array<[string, string]> }
  | { type: 'offset-checkpoint', name: string, version: number, entries: Array<{ topic: string, partition: number, offset: bigint }> }

/** the text lines: a head line naming what the file is, then one line per entry */
export function partitionFileLines (c: PartitionFileContent): string[] {
  switch (c.type) {
    case 'leader-epoch-checkpoint':
      return [`leader epoch cache version: ${c.version} entries: ${c.entries.length}`, ...c.entries.map((e) => `epoch: ${e.epoch} startOffset: ${e.startOffset}`)]
    case 'partition.metadata':
      return [`partition metadata version: ${c.version} topicId: ${c.topicId}`]
    case 'meta.properties':
      return ['broker properties', ...c.properties.map(([k, v]) => `${k}: ${v}`)]
    case 'offset-checkpoint':
      return [`${c.name} version: ${c.version} entries: ${c.entries.length}`, ...c.entries.map((e) => `topic: ${e.topic} partition: ${e.partition} offset: ${e.offset}`)]
  }
}

/** the JSON objects' fields (bigints become numbers or strings in the printer) */
export function partitionFileFields (c: PartitionFileContent): Record<string, unknown> {
  switch (c.type) {
    case 'leader-epoch-checkpoint': return { fileType: c.type, version: c.version, entries: c.entries }
    case 'partition.metadata': return { fileType: c.type, version: c.version, topicId: c.topicId }
    case 'meta.properties': return { fileType: c.type, properties: Object.fromEntries(c.properties) }
    case 'offset-checkpoint': return { fileType: c.name, version: c.version, entries: c.entries }
  }
}
