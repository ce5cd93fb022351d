// A synchronous call into an I/O thread. The scan and the dump read sources synchronously (decode/ asks a
// SegmentSource for a range and gets bytes back), while the S3 client is asynchronous: the calling thread posts
// a request on a MessagePort and blocks in Atomics.wait until the I/O thread has posted the answer and
// notified, then takes the answer with receiveMessageOnPort. The I/O thread keeps working in between
// (prefetching the next ranges), so a blocked caller costs no parallelism.
import { createRequire } from 'node:module'
import type * as V8 from 'node:v8'
import type * as WorkerThreads from 'node:worker_threads'
import type { MessagePort, Worker } from 'node:worker_threads'
import { holdYoungGenerationForGood } from '../young-generation.js'

// loaded with the first bridge, not at import: every partition command imports this module through the remote
// stores, and worker_threads cost each start-up 3-6 ms (bench/RESULTS-startup.md) though few read S3
let threads: typeof WorkerThreads | undefined
const workerThreads = (): typeof WorkerThreads =>
  (threads ??= createRequire(import.meta.url)('node:worker_threads') as typeof WorkerThreads)

const v8 = (): typeof V8 => createRequire(import.meta.url)('node:v8') as typeof V8

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
    // the I/O thread's code (the SDK's, a lot of it hot) optimised on that thread rather than on V8's compiler
    // threads: their malloc arenas kept ~15 MiB of the compiler's memory for the rest of a run (bench/RESULTS.md)
    v8().setFlagsFromString('--no-concurrent-recompilation')
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
        if (answer.id !== id) continue
        // this thread's young generation kept at the size it has: one that mostly waits for the I/O thread grew it to
        // 16 MiB semi-spaces all the same (a partition's objects surviving scavenges add up over a run), which with
        // the I/O thread's isolate beside it took 100 partitions x 300 remote segments from S3 over 128 MiB
        // (bench/RESULTS.md). Once the I/O thread has answered: V8 puts the growth factor back to 2 when it sets up
        // an isolate's heap (Heap::ConfigureHeap), so set before, it would not hold
        holdYoungGenerationForGood()
        return answer as T
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
