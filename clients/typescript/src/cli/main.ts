#!/usr/bin/env node
/**
 * Entry of the `packing` bin; from the repository: `npm run cli -- …`.
 * See program.ts and `packing --help`.
 */
import { run } from './program.js';

process.exitCode = await run(process.argv.slice(2), {
  env: process.env,
  stdout: process.stdout,
  stderr: process.stderr,
});
