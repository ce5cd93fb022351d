// moto_server (PyPI's S3 API server) for the benches that read s3://: found as test/support/s3-server.ts finds it
// (TSDUMP_MOTO_SERVER, .cache/moto, PATH) and started the same way, on a loopback port it picks.
import { spawn, spawnSync } from 'node:child_process'
import fs from 'node:fs'
import http from 'node:http'
import path from 'node:path'
import { fileURLToPath } from 'node:url'

const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..')

export function motoServerPath() {
  for (const c of [process.env.TSDUMP_MOTO_SERVER, path.join(repo, '.cache', 'moto', 'bin', 'moto_server')])
    if (c && fs.existsSync(c)) return c
  const r = spawnSync('sh', ['-c', 'command -v moto_server'], { encoding: 'utf8' })
  return r.status === 0 && r.stdout.trim() ? r.stdout.trim() : null
}

/**
 * moto_server on a loopback port it picks (read back from its banner), answering ListBuckets; `logFile`: its own
 * log (request lines, its errors) written there, for when it stops answering, else read and dropped
 */
export async function startMoto(exe, { logFile } = {}) {
  const child = spawn(exe, ['-H', '127.0.0.1', '-p', '0'], {
    stdio: ['ignore', 'pipe', 'pipe'],
    env: { ...process.env, PYTHONUNBUFFERED: '1' },
  })
  let seen = ''
  const port = await new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`moto_server did not start: ${seen}`)), 60000)
    const on = (d) => {
      seen += d
      const m = /Running on http:\/\/127\.0\.0\.1:(\d+)/.exec(seen)
      if (m) {
        clearTimeout(timer)
        resolve(Number(m[1]))
      }
    }
    child.stdout.on('data', on)
    child.stderr.on('data', on)
    child.on('exit', (c) => {
      clearTimeout(timer)
      reject(new Error(`moto_server exited ${c}: ${seen}`))
    })
  })
  child.stdout.removeAllListeners('data').resume()
  child.stderr.removeAllListeners('data')
  if (logFile === undefined) child.stderr.resume()
  else child.stderr.pipe(fs.createWriteStream(logFile))
  const endpoint = `http://127.0.0.1:${port}`
  for (let i = 0; i < 600; i++) {
    const status = await new Promise((resolve) =>
      http
        .get(endpoint + '/', (r) => {
          r.resume()
          resolve(r.statusCode)
        })
        .on('error', () => resolve(0)),
    )
    if (status === 200) break
    await new Promise((resolve) => setTimeout(resolve, 100))
  }
  const env = {
    AWS_ENDPOINT_URL: endpoint,
    AWS_ACCESS_KEY_ID: 'tsdump-bench',
    AWS_SECRET_ACCESS_KEY: 'tsdump-bench',
    AWS_REGION: 'us-east-1',
    AWS_CONFIG_FILE: '/dev/null',
    AWS_SHARED_CREDENTIALS_FILE: '/dev/null',
  }
  return {
    child,
    endpoint,
    env,
    stop: () => {
      child.removeAllListeners('exit')
      child.kill('SIGTERM')
    },
  }
}
