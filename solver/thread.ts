/**
 * Piscina worker entry: runs one worker's share of the packing search (search/search.ts) and
 * returns its best plans. The task is structured-cloned in; the result is cloned back.
 */
import { search, type SearchResult, type SearchTask } from './search/search.js';

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

/** Runs `task` until its deadline, convergence or patience (search/search.ts); a WarmTask returns null. */
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
