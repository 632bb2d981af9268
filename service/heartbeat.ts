/**
 * The heartbeat file of processes without HTTP (PACKING_HEARTBEAT_FILE; docs/operations.md,
 * "Distributed profile": the Compose health check tests its age). Refreshed every interval while the process is
 * healthy; once a dependency its roles need has been down longer than the grace period
 * (adapters/health/dependency-health.ts) it is no longer refreshed, so it ages and the health check fails.
 * Its content is the health report as one JSON line, kept current in both cases, so the file
 * itself says which dependency is down:
 * `{"status":"down","dependencies":{"event_store":"up","read_store":"up","bus":"down since 2026-…Z"},"refreshed_at":"…"}`.
 */
import { renameSync, statSync, utimesSync, writeFileSync } from 'node:fs';
import type { DependencyHealth } from '../adapters/health/dependency-health.js';

/** How often the heartbeat file is written, ms. */
export const HEARTBEAT_INTERVAL_MS = 5000;

/**
 * Writes the heartbeat to `file` now and every `intervalMs` (default HEARTBEAT_INTERVAL_MS);
 * returns the stop. While `health` reports `down` the content is updated but the modification
 * time stays at the last healthy write (the file is replaced atomically, through a sibling
 * `.tmp` file). A write that fails is tried again at the next interval.
 */
export function startHeartbeat(file: string, health: DependencyHealth, intervalMs = HEARTBEAT_INTERVAL_MS): () => void {
  let refreshedAt: Date | undefined;
  const beat = (): void => {
    const report = health.report();
    const now = new Date();
    const healthy = report.status !== 'down';
    const mtime = healthy ? now : (refreshedAt ?? lastModified(file) ?? now);
    if (healthy) refreshedAt = now;
    const temporary = `${file}.tmp`;
    try {
      writeFileSync(temporary, `${JSON.stringify({ ...report, refreshed_at: mtime.toISOString() })}\n`);
      utimesSync(temporary, mtime, mtime);
      renameSync(temporary, file);
    } catch {
      // A full or read-only disk: the file ages, which is the truth about this process too.
    }
  };
  beat();
  const timer = setInterval(beat, intervalMs);
  return () => clearInterval(timer);
}

function lastModified(file: string): Date | undefined {
  try {
    return statSync(file).mtime;
  } catch {
    return undefined;
  }
}
