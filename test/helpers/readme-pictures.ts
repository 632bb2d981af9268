/**
 * Where browser tests write the README's screenshots: `docs/img/` when the run is asked to
 * refresh them (`UPDATE_README_PICTURES=1 npx tap test/browser/…`), else `test-artifacts/readme/`
 * (git-ignored), so an ordinary test run leaves the work tree clean. Either way the tests check
 * the pictures they wrote (size limits), so a refresh is checked like a normal run.
 */
import { mkdirSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** True when this run refreshes the committed README pictures. */
export const REFRESH_README_PICTURES = process.env['UPDATE_README_PICTURES'] === '1';

/** The folder (ending in /) to write README pictures to in this run; created when missing. */
export function readmePictureDir(): string {
  const dir = fileURLToPath(
    new URL(REFRESH_README_PICTURES ? '../../docs/img/' : '../../test-artifacts/readme/', import.meta.url),
  );
  mkdirSync(dir, { recursive: true });
  return dir;
}
