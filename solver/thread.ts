/**
 * Piscina worker entry: runs one worker's share of the packing search (search/search.ts) and
 * returns its best plans. The task is structured-cloned in; the result is cloned back.
 */
import { setPriority } from 'node:os';
import { search, type SearchResult, type SearchTask } from './search/search.js';

/**
 * Niceness of a search thread (0 = normal, 19 = lowest). Searches run at a lower priority than
 * the process's main thread, so HTTP requests, projections and the scheduler are served first
 * when every core computes; the searches use whatever CPU is left. On Linux the setting applies
 * to the calling thread only (setpriority(2) on a thread id); elsewhere it may not apply and is
 * skipped.
 */
export const SEARCH_THREAD_NICE = 10;

try {
  setPriority(SEARCH_THREAD_NICE);
} catch {
  // Not permitted or not supported here: the thread keeps the process's priority.
}

/**
 * A warm-up task: one per pool thread. Each waits (without spinning) until all have arrived on
 * the shared counter, so no thread takes two of them and every thread has loaded the search code
 * when the last returns; gives up after `timeoutMs`.
 */
export interface WarmTask {
  arrived: Int32Array;
  threads: number;
  timeoutMs: number;
}

/** Runs `task` until its budget is spent or it converges (search/search.ts); a WarmTask returns null. */
export default function run(task: SearchTask | WarmTask): SearchResult | null {
  if ('arrived' in task) {
    const until = Date.now() + task.timeoutMs;
    Atomics.add(task.arrived, 0, 1);
    Atomics.notify(task.arrived, 0);
    for (;;) {
      const seen = Atomics.load(task.arrived, 0);
      const left = until - Date.now();
      if (seen >= task.threads || left <= 0) return null;
      Atomics.wait(task.arrived, 0, seen, left);
    }
  }
  return search(task);
}
