// tsdump's version is package.json's and nothing else's. It is read relative to this module, so it is right
// wherever the code runs from: src/ under vitest, dist/ in the checkout, or node_modules/tsdump/dist/ in an
// installed package (npm always ships package.json beside dist/).
import { createRequire } from 'node:module'

const pkg = createRequire(import.meta.url)('../../package.json') as { version?: unknown }
if (typeof pkg.version !== 'string') throw new Error('tsdump: package.json has no version')

/** the version in tsdump's package.json */
export const VERSION: string = pkg.version
