/**
 * The progress line of `packing pack --wait`, written to stderr so stdout keeps
 * only the answer: on a terminal one bar redrawn in place, otherwise one line per change.
 */
import type { Job } from '../generated/openapi.js';

const WIDTH = 24;

/** The text of one progress line for `job`, e.g. `job_… running  [#########-----]  40/100 placed, 1 vehicle`. */
export function progressLine(job: Job, itemsRequested: number): string {
  const total = Math.max(job.summary.items_requested || itemsRequested, 1);
  const placed = job.status === 'succeeded' ? job.summary.items_placed : job.progress.placed_items;
  const done = job.status === 'succeeded' ? WIDTH : Math.min(WIDTH, Math.round((placed / total) * WIDTH));
  const bar = `[${'#'.repeat(done)}${'-'.repeat(WIDTH - done)}]`;
  const vehicles = job.status === 'succeeded' ? job.summary.vehicles_used : job.progress.vehicles_done;
  return `${job.id} ${job.status.padEnd(9)} ${bar} ${placed}/${total} placed, ${vehicles} vehicle${vehicles === 1 ? '' : 's'} (${job.progress.stage})`;
}

/** A progress reporter writing to `stream`; `update(job)` on every poll, `end()` once. */
export function progressReporter(
  stream: NodeJS.WriteStream,
  itemsRequested: number,
): { update(job: Job): void; end(): void } {
  let last = '';
  const tty = stream.isTTY === true;
  return {
    update(job) {
      const line = progressLine(job, itemsRequested);
      if (line === last) return;
      last = line;
      stream.write(tty ? `\r\x1b[2K${line}` : `${line}\n`);
    },
    end() {
      if (tty && last) stream.write('\n');
    },
  };
}
