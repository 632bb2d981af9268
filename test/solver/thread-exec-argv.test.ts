/** The compiled solver threads' Node options (solver/thread-exec-argv.ts): the tsx loader goes, the rest stays. */
import t from 'tap';
import { withoutTsxLoader } from '../../solver/thread-exec-argv.js';

t.test('both forms of a tsx preload are dropped, other options kept in order', async (t) => {
  t.same(withoutTsxLoader(['--import', 'tsx', '--enable-source-maps']), ['--enable-source-maps']);
  t.same(withoutTsxLoader(['--enable-source-maps', '--import=tsx']), ['--enable-source-maps']);
  t.same(withoutTsxLoader(['--loader', 'tsx/esm', '--max-old-space-size=512']), ['--max-old-space-size=512']);
  t.same(withoutTsxLoader(['--require', '/srv/node_modules/tsx/dist/cjs/index.cjs']), []);
});

t.test('other preloads and options that only mention tsx elsewhere are kept', async (t) => {
  const argv = ['--import', './otel.js', '--import=tsx-free-hooks', '--title=tsx', '--stack-size=984'];
  t.same(withoutTsxLoader(argv), argv);
});

t.test('a trailing --import without a value is kept as it is', async (t) => {
  t.same(withoutTsxLoader(['--import']), ['--import']);
});
