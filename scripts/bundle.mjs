#!/usr/bin/env node
// The command line's build: bin/tsdump.js runs dist/bundle/tsdump.cjs, and the worker threads it starts are the
// bundles beside it. tsc's dist/ (one .js and .d.ts per src/ file) stays the library (package "exports") and
// what the tests load; this is the same src/ bundled by esbuild, because a start-up that loads 150 modules
// costs tsdump three times `node -e 0` on a small file (bench/RESULTS-startup.md).
//
// - The CLI is one CommonJS file: loaded by require, not by the ES module loader (whose resolution, linking
//   and namespace objects of node's modules cost a short run 15-20 ms), and compiled through V8's code cache
//   by bin/tsdump.js. The code of a command no run asks for is only pre-parsed: esbuild wraps what src/
//   loads by `await import` (cli/commands/*.ts) in functions called at that import.
// - One ES module per worker (workers/threads.ts and io/remote/s3-store.ts find them as ./<name>.js beside the
//   code that starts them, the CLI's bundle). A worker starts only for inputs of 64 MiB or more, where its
//   start-up does not count; s3-worker awaits at its top level, which CommonJS cannot.
// - Dependencies loaded only on demand stay outside: pako, fzstd and the native CRC binding are loaded by
//   createRequire when first needed, @aws-sdk/client-s3 by the S3 thread; bundling them would compile them
//   at every start. commander, chalk and crc-32 are bundled (each file loaded from node_modules costs its
//   resolution and a compile outside the code cache).
// - dist/bundle/ is two levels under the package, as tsc's dist/io/ is, so io/package-version.ts finds
//   package.json at ../../ in both builds.
// - Source maps beside the bundles (for bench/profile-summary.mjs); package.json "files" keeps them out of the package.
import * as esbuild from 'esbuild-wasm'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')
export const BUNDLE_DIR = path.join(root, 'dist', 'bundle')

const ENTRIES = {
  tsdump: 'src/cli/main.ts',
  'dump-worker': 'src/commands/workers/dump-worker.ts',
  'partition-worker': 'src/commands/workers/partition-worker.ts',
  'txns-worker': 'src/commands/workers/txns-worker.ts',
  'export-worker': 'src/commands/workers/export-worker.ts',
  's3-worker': 'src/io/remote/s3-worker.ts',
}

/**
 * commander's command.js loads node:child_process at the top, for executable subcommands (tsdump has none):
 * 3-8 ms of every start (bench/RESULTS-startup.md). In the bundle it is loaded at its first use. The build
 * fails if the line moves, so that a commander upgrade is looked at rather than silently slower.
 */
export const lazyChildProcess = {
  name: 'commander-lazy-child-process',
  setup(build) {
    build.onLoad({ filter: /[\\/]commander[\\/]lib[\\/]command\.js$/ }, async (args) => {
      const line = "const childProcess = require('node:child_process');"
      const text = await fs.promises.readFile(args.path, 'utf8')
      if (!text.includes(line)) throw new Error(`${args.path}: no "${line}" to make lazy (a new commander?)`)
      const lazy = "const childProcess = { spawn: (...a) => require('node:child_process').spawn(...a) };"
      return { contents: text.replace(line, lazy), loader: 'js' }
    })
  },
}

/**
 * chalk detects the terminal's colours when it is imported (supports-color: node:tty, hence net and the
 * streams, 3-6 ms of every start). tsdump never uses that answer: every printer gets `new Chalk({ level })`
 * from cli/main.ts's colorLevel (docs/architecture.md, STYLE 11), so in the bundle the detection says
 * "no colour" without asking.
 */
export const noColourDetection = {
  name: 'chalk-no-colour-detection',
  setup(build) {
    build.onResolve({ filter: /^#supports-color$/ }, () => ({ path: 'supports-color', namespace: 'tsdump-stub' }))
    build.onLoad({ filter: /.*/, namespace: 'tsdump-stub' }, () => ({
      contents: 'export default { stdout: false, stderr: false }',
      loader: 'js',
    }))
  },
}

/** packages resolved at run time from node_modules, as in tsc's build */
const EXTERNAL = ['@aws-sdk/client-s3', '@node-rs/crc32', 'fzstd', 'pako']

const COMMON = {
  absWorkingDir: root,
  outdir: BUNDLE_DIR,
  bundle: true,
  platform: 'node',
  target: 'node20',
  external: EXTERNAL,
  sourcemap: true,
  sourcesContent: false,
  plugins: [lazyChildProcess, noColourDetection],
  logLevel: 'warning',
}

/** a script compiled by vm.Script, as bin/tsdump.js compiles the CLI, has no loader for import() */
function checkNoDynamicImport(file) {
  const m = /[^\w$.]import\s*\(/.exec(fs.readFileSync(file, 'utf8'))
  if (m !== null)
    throw new Error(
      `${file}: a dynamic import() at ${m.index}, which fails under bin/tsdump.js's code cache: load it with require (createRequire)`,
    )
}

export async function bundle() {
  fs.rmSync(BUNDLE_DIR, { recursive: true, force: true })
  const { tsdump, ...workers } = ENTRIES
  await Promise.all([
    esbuild.build({
      ...COMMON,
      entryPoints: { tsdump },
      format: 'cjs',
      outExtension: { '.js': '.cjs' },
      // the bundle's own URL where src/ asks for its module's (worker URLs, package.json, createRequire)
      define: { 'import.meta.url': '__tsdumpModuleUrl' },
      banner: { js: "const __tsdumpModuleUrl = require('node:url').pathToFileURL(__filename).href;" },
    }),
    ...Object.entries(workers).map(([name, file]) =>
      esbuild.build({
        ...COMMON,
        entryPoints: { [name]: file },
        format: 'esm',
        // commander is CommonJS: its require() of node's modules needs a real require in an ES module
        banner: {
          js: "import { createRequire as __tsdumpCreateRequire } from 'node:module'; const require = __tsdumpCreateRequire(import.meta.url);",
        },
      }),
    ),
  ])
  checkNoDynamicImport(path.join(BUNDLE_DIR, 'tsdump.cjs'))
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await bundle()
