/**
 * Persisted read models are only rebuilt when READ_MODEL_VERSION changes (projections/version.ts).
 * This test records, beside the version, a digest of the sources of every read model
 * (projections/<model>/*.ts and projections/all.ts): when the sources change and the version
 * does not, it fails and asks the author to decide. If the documents written for the same events
 * changed, bump READ_MODEL_VERSION; either way record the new digest in the fixture.
 */
import t from 'tap';
import { createHash } from 'node:crypto';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { READ_MODEL_VERSION } from '../../projections/version.js';

const ROOT = fileURLToPath(new URL('../../projections/', import.meta.url));
const FIXTURE = fileURLToPath(new URL('./read-model-version.json', import.meta.url));

/** sha256 over the read models' source files, in name order (paths included). */
function sourcesDigest(): string {
  const files = ['all.ts'];
  for (const dir of readdirSync(ROOT).sort()) {
    if (!statSync(join(ROOT, dir)).isDirectory()) continue;
    for (const f of readdirSync(join(ROOT, dir)).sort()) if (f.endsWith('.ts')) files.push(`${dir}/${f}`);
  }
  const hash = createHash('sha256');
  for (const f of files) hash.update(`${f}\n`).update(readFileSync(join(ROOT, f)));
  return hash.digest('hex');
}

t.test('the read-model version was considered whenever the projections changed', async (t) => {
  const recorded = JSON.parse(readFileSync(FIXTURE, 'utf8')) as { version: string; digest: string };
  const digest = sourcesDigest();
  if (digest !== recorded.digest) {
    t.fail(
      `the projections' sources changed (digest ${digest}). If the documents they write for the same events changed, bump ` +
        `READ_MODEL_VERSION in projections/version.ts (persisted read models are then rebuilt at start); then write ` +
        `{"version": "<READ_MODEL_VERSION>", "digest": "${digest}"} to test/projections/read-model-version.json`,
    );
  } else t.pass('sources unchanged since the version was recorded');
  t.equal(recorded.version, READ_MODEL_VERSION, 'the fixture names the current version');
});
