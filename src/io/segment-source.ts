// The interface lives with its users in decode/ (decoders ask a SegmentSource for byte ranges); io/ implements it.
export type { SegmentSource } from '../decode/segment-source.js'
