// Preloaded into tsdump by bench/run.mjs (node --require): on exit, appends the process's read-syscall
// byte count (/proc/self/io rchar) and peak heap figures to $TSDUMP_BENCH_PROBE as one JSON line.
// It observes only; it changes nothing in tsdump.
'use strict'
const fs = require('node:fs')
const out = process.env.TSDUMP_BENCH_PROBE
if (out) {
  process.on('exit', () => {
    try {
      const io = Object.fromEntries(
        fs
          .readFileSync('/proc/self/io', 'utf8')
          .trim()
          .split('\n')
          .map((l) => l.split(': '))
          .map(([k, v]) => [k, Number(v)]),
      )
      const status = fs.readFileSync('/proc/self/status', 'utf8')
      const kb = (k) => Number((new RegExp(`^${k}:\\s+(\\d+) kB`, 'm').exec(status) || [])[1])
      const mu = process.memoryUsage()
      fs.appendFileSync(
        out,
        JSON.stringify({
          rchar: io.rchar,
          syscr: io.syscr,
          wchar: io.wchar,
          syscw: io.syscw,
          vmHWM_kB: kb('VmHWM'),
          heapUsed: mu.heapUsed,
          external: mu.external,
          arrayBuffers: mu.arrayBuffers,
        }) + '\n',
      )
    } catch {
      /* best effort */
    }
  })
}
