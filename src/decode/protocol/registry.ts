// A release's view of a generated table: the newest definitions with that release's overlay applied,
// indexed the ways the serdes look them up.
import type { KafkaRelease, MessageDef } from './types.js'
import { inRange } from './types.js'

export interface SchemaTable {
  readonly MESSAGES: Readonly<Record<string, MessageDef>>
  readonly RELEASE_OVERLAYS: Readonly<Record<string, Readonly<Record<string, MessageDef | null>>>>
}

export interface ReleaseSchemas {
  readonly byName: ReadonlyMap<string, MessageDef>
  /** apiKey -> message of kind "metadata" (frame-encoded topics: __cluster_metadata, __remote_log_metadata) */
  readonly byApiKey: ReadonlyMap<number, MessageDef>
  /** record type -> [key, value] of a coordinator topic */
  readonly coordinator: ReadonlyMap<number, readonly [MessageDef, MessageDef]>
}

const cache = new WeakMap<SchemaTable, Map<string, ReleaseSchemas>>()

/**
 * Coordinator record types: 4.1+ definitions say `"type": "coordinator-key", "apiKey": N`
 * (KAFKA-18301); 3.9/4.0 key definitions are "data" messages whose validVersions are the record
 * type(s), e.g. OffsetCommitKey "0-1", paired with the value of the same name.
 */
function coordinatorTypes(byName: ReadonlyMap<string, MessageDef>): Map<number, readonly [MessageDef, MessageDef]> {
  const out = new Map<number, readonly [MessageDef, MessageDef]>()
  for (const key of byName.values()) {
    if (!key.name.endsWith('Key')) continue
    const value = byName.get(`${key.name.slice(0, -3)}Value`)
    if (value === undefined) continue
    if (key.kind === 'coordinator-key' && key.apiKey !== undefined) out.set(key.apiKey, [key, value])
    else if (key.kind === 'data' && key.validVersions !== null) {
      for (let t = key.validVersions[0]; t <= key.validVersions[1]; t++) if (!out.has(t)) out.set(t, [key, value])
    }
  }
  return out
}

export function schemasFor(table: SchemaTable, release: KafkaRelease): ReleaseSchemas {
  let perRelease = cache.get(table)
  if (perRelease === undefined) {
    perRelease = new Map()
    cache.set(table, perRelease)
  }
  const hit = perRelease.get(release)
  if (hit !== undefined) return hit
  const byName = new Map(Object.entries(table.MESSAGES))
  for (const [name, def] of Object.entries(table.RELEASE_OVERLAYS[release] ?? {})) {
    if (def === null) byName.delete(name)
    else byName.set(name, def)
  }
  const byApiKey = new Map<number, MessageDef>()
  for (const m of byName.values()) if (m.kind === 'metadata' && m.apiKey !== undefined) byApiKey.set(m.apiKey, m)
  const out: ReleaseSchemas = { byName, byApiKey, coordinator: coordinatorTypes(byName) }
  perRelease.set(release, out)
  return out
}

/** 3.9/4.0 keys are read at version = record type; 4.1+ keys have the single version 0 */
export function keyVersion(key: MessageDef, type: number): number {
  return inRange(key.validVersions, type) ? type : 0
}
