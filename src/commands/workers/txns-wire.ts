// What crosses postMessage from a txns worker: timeline runs as int64 words (the codec is analysis/timeline-wire.ts,
// which the one scan's spill shares).
export { RUN_SLOTS, decodeRun, encodeRuns } from '../../analysis/timeline-wire.js'
export type { WireRuns } from '../../analysis/timeline-wire.js'
