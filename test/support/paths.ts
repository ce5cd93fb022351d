import * as fs from 'node:fs'
import * as path from 'node:path'
import { fileURLToPath } from 'node:url'

export const REPO_ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..')
/** ../shared/corpus: real broker-written files, read in place (never copied into the repo) */
export const CORPUS = path.resolve(REPO_ROOT, '../shared/corpus')
export const FIXTURES = path.join(REPO_ROOT, 'fixtures/broker')
/** the 4.4.0 broker's fixtures (written by the 4.4.0 Java client) */
export const FIXTURES_44 = path.join(REPO_ROOT, 'fixtures/broker-4.4')

export function corpusAvailable(): boolean {
  const ok = fs.existsSync(path.join(CORPUS, 'facts.json'))
  if (!ok)
    console.log(
      `skipping: ${CORPUS} is absent (the shared corpus is only present next to the repository in CI and dev sessions)`,
    )
  return ok
}
