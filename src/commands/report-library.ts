// report() for the library: the model `tsdump report` draws its page from, as fn(paths, options) like every
// other analysis; the page itself (renderReport) and the output file stay the command's.
import type { BuiltReport, ReportOptions } from './report.js'
import { buildReportModel } from './report.js'

/** report()'s options: the command's, without where the page goes */
export type ReportLibraryOptions = Omit<ReportOptions, 'paths' | 'output'>

/** report()'s result: `unusable`, each partition with its findings (`report.findings`, the hanging rule's `findings`), the page's `model` */
export type ReportResult = BuiltReport

/** Scan `paths` as `tsdump report` does and build its model (no page is written). */
export function report(paths: string[], opts: ReportLibraryOptions = {}): ReportResult {
  return buildReportModel({ ...opts, paths, output: '-' })
}
