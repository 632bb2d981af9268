/**
 * `npm run build [-- --if-missing | --if-stale]`: builds the 3D viewer (viewer/build.ts) into
 * viewer/dist. Without a flag it always builds (and fails without Vite); `--if-stale` builds
 * when the build is missing or older than its sources, `--if-missing` only when there is none
 * (`npm start` runs this first); both leave the build as it is, with a note, when Vite is not
 * installed. Exit 1 when a build fails.
 */
import { Command } from 'commander';
import { buildViewer, ensureViewerBuild } from '../viewer/build.js';

const program = new Command('build')
  .description('build the 3D viewer (Vite) into viewer/dist')
  .option('--if-missing', 'build only when there is no build')
  .option('--if-stale', 'build when there is no build or a source changed since')
  .action(async (o: { ifMissing?: boolean; ifStale?: boolean }) => {
    if (o.ifMissing || o.ifStale) {
      await ensureViewerBuild(o.ifStale ? 'stale' : 'missing');
      return;
    }
    const ms = await buildViewer();
    process.stdout.write(`built the 3D viewer into viewer/dist in ${(ms / 1000).toFixed(1)} s\n`);
  });

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
