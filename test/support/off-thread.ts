// Runs one exported function of a TypeScript module on a worker thread. A test of "this call ends
// promptly" (a regex that must not backtrack for hours) cannot run the call on the test's own
// thread: a frozen thread also freezes the runner's timer, so `{ timeout }` would never fire and
// the test would hang or pass late instead of failing. Off the thread, the timeout fails the test
// and the worker is terminated.
import { Worker } from 'node:worker_threads';

const TSX_API = import.meta.resolve('tsx/esm/api');

// Plain JavaScript run by the worker: it loads the module through tsx (workers do not inherit the
// parent's loader hooks on Node 20), calls the function and posts back its value or its error.
const WORKER_SOURCE = `
const { parentPort, workerData } = require('node:worker_threads');
import(workerData.tsx)
  .then((tsx) => tsx.tsImport(workerData.module, workerData.module))
  .then((m) => parentPort.postMessage({ value: m[workerData.name](...workerData.args) }))
  .catch((err) => parentPort.postMessage({ error: String((err && err.stack) || err) }));
`;

/**
 * `module[name](...args)` computed on a worker thread. Arguments and result must be structured-
 * cloneable. Pass the test's `t.signal`: when the test times out, the worker is terminated.
 */
export function offThread<T>(module: URL, name: string, args: unknown[], signal: AbortSignal): Promise<T> {
  const worker = new Worker(WORKER_SOURCE, { eval: true, workerData: { tsx: TSX_API, module: module.href, name, args } });
  worker.unref(); // a worker stuck in a regex must not keep the test process alive
  return new Promise<T>((resolve, reject) => {
    const stop = () => void worker.terminate();
    signal.addEventListener('abort', () => {
      stop();
      reject(signal.reason);
    });
    worker.once('message', (message: { value?: T; error?: string }) => {
      stop();
      if (message.error !== undefined) reject(new Error(message.error));
      else resolve(message.value as T);
    });
    worker.once('error', (err) => {
      stop();
      reject(err);
    });
  });
}
