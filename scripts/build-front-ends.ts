/**
 * `npm run build [-- --if-missing | --if-stale]`: builds both front ends (scripts/front-end-builds.ts),
 * the 3D viewer into viewer/dist and the web app into webapp/dist, the folders the service serves
 * (api/http/front-ends.ts). Without a flag it always builds (and fails without Vite); `--if-stale`
 * builds each one that is missing or older than its sources (`npm start` runs this first),
 * `--if-missing` only those with no build; both leave a build as it is, with a note, when Vite is
 * not installed. Exit 1 when a build fails.
 */
import { relative } from 'node:path';
import { Command } from 'commander';
import { FRONT_ENDS, buildFrontEnd, ensureBuild } from './front-end-builds.js';

const program = new Command('build')
  .description('build the 3D viewer and the web app (Vite) into viewer/dist and webapp/dist')
  .option('--if-missing', 'build only the front ends without a build')
  .option('--if-stale', 'build the front ends without a build or with a source changed since')
  .action(async (o: { ifMissing?: boolean; ifStale?: boolean }) => {
    for (const fe of FRONT_ENDS) {
      if (o.ifMissing || o.ifStale) {
        await ensureBuild(fe, o.ifStale ? 'stale' : 'missing');
        continue;
      }
      const ms = await buildFrontEnd(fe);
      process.stdout.write(
        `built the ${fe.name} into ${relative(process.cwd(), fe.dist) || fe.dist} in ${(ms / 1000).toFixed(1)} s\n`,
      );
    }
  });

program.parseAsync().catch((err: unknown) => {
  process.stderr.write(`${err instanceof Error ? err.message : String(err)}\n`);
  process.exit(1);
});
