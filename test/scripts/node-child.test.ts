/**
 * Node children of tests (test/helpers/node-child.ts): tap's process-info preload is left out of
 * their NODE_OPTIONS in both spellings, other options kept; a real child started so sees none of
 * it while this test process has it when tap runs it directly (npm test's launcher leaves it out); the service and its solver threads start from
 * `dist/` when it is fresh (test/helpers/compiled-service.ts).
 */
import t from 'tap';
import { execFileSync } from 'node:child_process';
import { nodeChild, withoutTapPreload } from '../helpers/node-child.js';
import { serviceMainArgs, solverThreadModule } from '../helpers/compiled-service.js';
import { serverBuildState, SERVER_MAIN } from '../../scripts/build-server.js';

const PRELOAD = 'file:///srv/node_modules/@tapjs/processinfo/dist/esm/import.mjs';

t.test('withoutTapPreload drops the preload in both spellings and keeps the rest in order', async (t) => {
  t.equal(withoutTapPreload(`--import=${PRELOAD}`), '');
  t.equal(
    withoutTapPreload(`--max-old-space-size=512 --import ${PRELOAD} --enable-source-maps`),
    '--max-old-space-size=512 --enable-source-maps',
  );
  t.equal(withoutTapPreload('--import=./otel.js --stack-size=984'), '--import=./otel.js --stack-size=984');
  t.equal(withoutTapPreload(''), '');
});

t.test('nodeChild: env sets what is left of NODE_OPTIONS, or unsets it', async (t) => {
  t.same(nodeChild(['x.js'], `--import=${PRELOAD}`), ['env', ['-u', 'NODE_OPTIONS', process.execPath, 'x.js']]);
  t.same(nodeChild(['x.js'], `--import=${PRELOAD} --trace-warnings`), [
    'env',
    ['NODE_OPTIONS=--trace-warnings', process.execPath, 'x.js'],
  ]);
});

t.test('a child started so does not load the preload', async (t) => {
  const script = 'console.log(JSON.stringify(process.env.NODE_OPTIONS ?? null))';
  const seen = JSON.parse(execFileSync(...nodeChild(['-e', script]), { encoding: 'utf8' })) as string | null;
  t.notMatch(seen ?? '', /@tapjs[\\/]processinfo/, 'the child has no process-info preload');
  // npm test runs this file's bundle through a launcher that leaves the preload out already
  // (scripts/test-launch.mjs); `npx tap` on the source runs it with the preload.
  if (process.env['PACKING_TEST_LAUNCHED'] === '1')
    t.notMatch(process.env['NODE_OPTIONS'] ?? '', /@tapjs[\\/]processinfo/, 'nor this launched test process');
  else if (process.env['TAP'] === '1')
    t.match(process.env['NODE_OPTIONS'] ?? '', /@tapjs[\\/]processinfo/, 'while this test process, run by tap, has it');
});

t.test('the service starts from dist/ when it is fresh, else from the sources under tsx', async (t) => {
  const fresh = serverBuildState() === 'fresh';
  t.same(
    serviceMainArgs(),
    fresh ? [SERVER_MAIN] : ['--import', 'tsx', 'service/main.ts'],
    `dist/ is ${fresh ? '' : 'not '}fresh`,
  );
  t.same(serviceMainArgs('/elsewhere/'), ['--import', 'tsx', 'service/main.ts'], 'another checkout: its sources');
  t.equal(
    solverThreadModule()?.pathname.endsWith('/dist/solver/thread.js'),
    fresh ? true : undefined,
    'and so the threads',
  );
});
