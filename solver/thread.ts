/**
 * Piscina worker entry: runs one worker's share of the packing search (search/search.ts) and
 * returns its best plans. The task is structured-cloned in; the result is cloned back.
 */
import { search, type SearchResult, type SearchTask } from './search/search.js';

/** Runs `task` until its deadline, convergence or patience; see search/search.ts. */
export default function run(task: SearchTask): SearchResult {
  return search(task);
}
