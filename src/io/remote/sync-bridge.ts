// A synchronous call into an I/O thread. The scan and the dump read sources synchronously (decode/ asks a
// SegmentSource for a range and gets bytes back), while the S3 client is asynchronous: the calling thread posts
// a request on a MessagePort and blocks in Atomics.wait until the I/O thread has posted the answer and
// notified, then takes the answer with receiveMessageOnPort. The I/O thread keeps working in between
// (prefetching the next ranges), so a blocked caller costs no parallelism.
import { createRequire } from 'node:module'
import type * as WorkerThreads from 'node:worker_threads'
import type { MessagePort, Worker } from 'node:worker_threads'

// loaded with the first bridge, not at import: every partition command imports this module through the remote
// stores, and worker_threads cost each start-up 3-6 ms (bench/RESULTS-startup.md) though few read S3
let threads: typeof WorkerThreads | undefined
const workerThreads = (): typeof WorkerThreads =>
  (threads ??= createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads)

/** longest wait for one answer; the I/O thread's own retries end well before */
const CALL_TIMEOUT_MS = 10 * 60_000

export interface BridgeSetup {
  port: MessagePort
  flag: Int32Array
}

export class SyncBridge {
  private readonly flag = new Int32Array(new SharedArrayBuffer(4))
  private readonly port: MessagePort
  private readonly worker: Worker
  private next = 1

  constructor(url: URL, data: Record<string, unknown>) {
    const { MessageChannel, Worker } = workerThreads()
    const ch = new MessageChannel()
    this.port = ch.port1
    // a small young generation (1 MiB: 4 cost a 128 MiB object's dump ~7 MiB of peak RSS): the chunks are external
    // memory, collected as soon as they are handed over
    this.worker = new Worker(url, {
      workerData: { ...data, port: ch.port2, flag: this.flag },
      transferList: [ch.port2],
      resourceLimits: { maxYoungGenerationSizeMb: 1 },
    })
    this.worker.unref()
  }

  /** @throws Error when the I/O thread does not answer in time */
  call<T>(request: Record<string, unknown>): T {
    const id = this.next++
    Atomics.store(this.flag, 0, 0)
    this.port.postMessage({ ...request, id })
    const end = Date.now() + CALL_TIMEOUT_MS
    for (;;) {
      Atomics.wait(this.flag, 0, 0, 1000)
      const m = workerThreads().receiveMessageOnPort(this.port)
      if (m !== undefined) {
        const answer = m.message as { id: number }
        if (answer.id === id) return answer as T
        continue
      }
      if (Date.now() > end)
        throw new Error(`remote storage I/O thread did not answer within ${CALL_TIMEOUT_MS / 1000} s`)
    }
  }

  close(): void {
    void this.worker.terminate()
  }
}

/** The I/O thread's side: answer on the port, then wake the caller. */
export function answer(
  setup: BridgeSetup,
  message: { id: number } & Record<string, unknown>,
  transfer: ArrayBuffer[] = [],
): void {
  setup.port.postMessage(message, transfer)
  Atomics.store(setup.flag, 0, 1)
  Atomics.notify(setup.flag, 0)
}
