#!/usr/bin/env node
// `npm run build:sea`: tsdump as one executable file for a machine without Node (a broker with a JVM only), with
// Node's single executable applications (https://nodejs.org/api/single-executable-applications.html): the CLI
// bundled into one CommonJS script, its blob made by `node --experimental-sea-config`, injected by postject
// (npm) into a copy of this node binary. Output: dist/sea/tsdump (package.json "files" leaves it out).
//
// The executable's script differs from dist/bundle/tsdump.cjs where a file beside it would be read:
// - a SEA's require loads node's own modules only, so what the bundle loads from node_modules at first use
//   (pako, fzstd) is bundled in; the native CRC binding stays out (crc32c.ts falls back to WebAssembly/JS) and
//   so does the S3 client (s3:// paths say it is unavailable);
// - package.json's version is written in (io/package-version.ts reads it beside dist/);
// - no worker threads: their code is files beside the bundle. The default thread count is 1 (a large file is
//   dumped by one thread, as `--threads 1` does).
import { execFileSync } from 'node:child_process'
import fs from 'node:fs'
import path from 'node:path'
import { fileURLToPath } from 'node:url'
import * as esbuild from 'esbuild-wasm'
import { lazyChildProcess, noColourDetection } from '../bundle.mjs'

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..', '..')
export const SEA_DIR = path.join(root, 'dist', 'sea')
export const SEA_EXE = path.join(SEA_DIR, process.platform === 'win32' ? 'tsdump.exe' : 'tsdump')
// the fuse Node's SEA support looks for in its binary (single-executable-applications.md, "Injecting the blob")
const FUSE = 'NODE_SEA_FUSE_fce680ab2cc467b6e072b8b5df1996b2'

/** replace one exact text in one source file, failing the build if it moved (so a change is looked at) */
function replaceIn(filter, from, to) {
  return {
    name: `sea-replace-${filter.source}`,
    setup(build) {
      build.onLoad({ filter }, async (args) => {
        const text = await fs.promises.readFile(args.path, 'utf8')
        if (!text.includes(from)) throw new Error(`${args.path}: no "${from}" to replace for the single executable`)
        return { contents: text.replace(from, to), loader: 'ts' }
      })
    },
  }
}

async function bundle(script) {
  const { version } = JSON.parse(fs.readFileSync(path.join(root, 'package.json'), 'utf8'))
  await esbuild.build({
    absWorkingDir: root,
    stdin: {
      contents:
        "import { main } from './src/cli/main.ts'\nmain(process.argv.slice(2)).then((code) => { process.exitCode = code })\n",
      resolveDir: root,
      loader: 'ts',
    },
    outfile: script,
    bundle: true,
    platform: 'node',
    target: 'node20',
    format: 'cjs',
    external: ['@aws-sdk/client-s3', '@node-rs/crc32'],
    define: { 'import.meta.url': '__tsdumpModuleUrl' },
    banner: { js: "const __tsdumpModuleUrl = require('node:url').pathToFileURL(process.execPath).href;" },
    plugins: [
      lazyChildProcess,
      noColourDetection,
      replaceIn(
        /[\\/]src[\\/]io[\\/]package-version\.ts$/,
        "const pkg = createRequire(import.meta.url)('../../package.json') as { version?: unknown }",
        `const pkg = { version: ${JSON.stringify(version)} } as { version?: unknown }`,
      ),
      // a require esbuild sees, so that it bundles them (the bundle loads them from node_modules at first use)
      replaceIn(
        /[\\/]src[\\/]decode[\\/]codecs[\\/]zstd\.ts$/,
        "createRequire(import.meta.url)('fzstd')",
        "require('fzstd')",
      ),
      replaceIn(
        /[\\/]src[\\/]decode[\\/]codecs[\\/]gzip\.ts$/,
        "createRequire(import.meta.url)('pako')",
        "require('pako')",
      ),
      replaceIn(
        /[\\/]src[\\/]commands[\\/]workers[\\/]threads\.ts$/,
        'export const MAX_DEFAULT_THREADS = 2',
        'export const MAX_DEFAULT_THREADS = 1',
      ),
    ],
    logLevel: 'warning',
  })
}

export async function buildSea() {
  fs.rmSync(SEA_DIR, { recursive: true, force: true })
  fs.mkdirSync(SEA_DIR, { recursive: true })
  const script = path.join(SEA_DIR, 'tsdump-sea.cjs')
  const blob = path.join(SEA_DIR, 'sea-prep.blob')
  const config = path.join(SEA_DIR, 'sea-config.json')
  await bundle(script)
  fs.writeFileSync(config, JSON.stringify({ main: script, output: blob, disableExperimentalSEAWarning: true }))
  execFileSync(process.execPath, ['--experimental-sea-config', config], { stdio: 'inherit' })
  fs.copyFileSync(process.execPath, SEA_EXE)
  fs.chmodSync(SEA_EXE, 0o755)
  const postject = path.join(root, 'node_modules', 'postject', 'dist', 'cli.js')
  if (!fs.existsSync(postject)) throw new Error('postject is not installed (npm ci installs it, a devDependency)')
  const args = [postject, SEA_EXE, 'NODE_SEA_BLOB', blob, '--sentinel-fuse', FUSE]
  if (process.platform === 'darwin') args.push('--macho-segment-name', 'NODE_SEA')
  execFileSync(process.execPath, args, { stdio: ['ignore', 'ignore', 'inherit'] })
  for (const f of [blob, config]) fs.rmSync(f)
  const mib = (fs.statSync(SEA_EXE).size / 1024 / 1024).toFixed(1)
  console.log(
    `${path.relative(root, SEA_EXE)}: ${mib} MiB (node ${process.version}, ${process.platform}-${process.arch})`,
  )
}

if (process.argv[1] !== undefined && path.resolve(process.argv[1]) === fileURLToPath(import.meta.url)) await buildSea()
