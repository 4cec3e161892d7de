/**
 * The entry of a sandbox thread (a `node:worker_threads` worker of the sandbox pool): loads QuickJS on a
 * WebAssembly memory capped at 16 MiB more than the memory limit, then runs the jobs the pool posts, one at a time,
 * each in a fresh QuickJS runtime. The control plane's own thread never runs a workflow script; the pool terminates
 * this thread when a run overruns its CPU time, whatever the script is doing.
 */
import { parentPort, workerData } from 'node:worker_threads';
import type { QuickJSWASMModule } from 'quickjs-emscripten';
import { createClosedSchemaChecker } from './closed-result-schema.js';
import { createResultValidator } from './result-validator.js';
import type { SandboxJob, SandboxThreadData, SandboxThreadMessage } from './sandbox-protocol.js';
import { currentThreadId } from './thread-cpu-time.js';
import { pinUtcDate } from './pin-utc-date.js';
import { checkWorkflowScript, runWorkflowScript } from './workflow-sandbox.js';

const WASM_PAGE = 65_536;

/** What this file uses of a `WebAssembly.Memory` (whose type quickjs-emscripten's options name). */
interface WasmMemory {
  readonly buffer: ArrayBuffer;
}
/** The WebAssembly memory QuickJS starts with (its build's initial memory), beside what its scripts may use. */
const BASE_MEMORY = 16 * 1024 * 1024;

async function main(): Promise<void> {
  const port = parentPort;
  if (port === null) throw new Error('sandbox-worker runs only as a worker thread of the sandbox pool.');
  const data = workerData as SandboxThreadData;
  // QuickJS reads the local time zone through this thread's Date: it is UTC, whatever the host's TZ.
  pinUtcDate(globalThis);
  // The WebAssembly global (the DOM library, which declares it as a value, is not in this package's types).
  const { Memory } = (globalThis as unknown as { WebAssembly: { Memory: new (descriptor: { initial: number; maximum: number }) => WasmMemory } }).WebAssembly;
  const memory = new Memory({
    initial: BASE_MEMORY / WASM_PAGE,
    maximum: Math.ceil((BASE_MEMORY + data.memoryLimitBytes) / WASM_PAGE),
  });
  const { newQuickJSWASMModuleFromVariant, newVariant, RELEASE_SYNC } = await import('quickjs-emscripten');
  const module: QuickJSWASMModule = await newQuickJSWASMModuleFromVariant(newVariant(RELEASE_SYNC, { wasmMemory: memory as Parameters<typeof newVariant>[1]['wasmMemory'] & object }));
  const startBytes = memory.buffer.byteLength;
  const validator = createResultValidator();
  const schemas = createClosedSchemaChecker(validator);
  let jobs = 0;
  const retire = (broken: boolean): boolean => {
    jobs += 1;
    return broken || jobs >= data.retireAfterJobs || memory.buffer.byteLength - startBytes > data.retireAfterGrowthBytes;
  };
  const post = (message: SandboxThreadMessage): void => port.postMessage(message);
  port.on('message', (job: SandboxJob) => {
    if (job.kind === 'run') {
      const run = runWorkflowScript(module, { ...job.input, schemas });
      post({ kind: 'ran', id: job.id, run, retire: retire(run.moduleBroken) });
    } else if (job.kind === 'validate') {
      const compiled = validator.compile(job.schema);
      const problems = compiled.ok ? compiled.check(job.value) : [{ path: '$', message: `the task's result schema does not compile: ${compiled.message}` }];
      post({ kind: 'validated', id: job.id, problems, retire: retire(false) });
    } else {
      let problem: string | undefined;
      let broken = false;
      try {
        problem = checkWorkflowScript(module, job.script, job.limits);
      } catch (error) {
        // A host-level failure inside QuickJS (the parser exhausting the thread's stack): this thread retires.
        broken = true;
        problem = error instanceof RangeError ? 'the script nests too deeply to compile (stack overflow)' : `the sandbox failed: ${(error as Error).message}`;
      }
      post({ kind: 'checked', id: job.id, problem, retire: retire(broken) });
    }
  });
  post({ kind: 'ready', threadId: currentThreadId() });
}

await main();
