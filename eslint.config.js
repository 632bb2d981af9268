// ESLint flat config: typescript-eslint's recommended type-checked rules over every TypeScript file
// of the repository (the service, scripts, tests, the web app, the viewer and the TypeScript client).
// Type information comes from the project service: each file is checked with the nearest
// tsconfig.json (the root one, webapp/tsconfig.json or viewer/tsconfig.json).
// Production code keeps the whole recommended set; the exceptions below name the folder and the reason.
import js from '@eslint/js';
import tseslint from 'typescript-eslint';

export default tseslint.config(
  {
    ignores: [
      '**/node_modules/**',
      '**/dist/**',
      '.tap/**',
      '**/generated/**',
      'test-artifacts/**',
      'examples/**',
      'docs/**',
    ],
  },
  js.configs.recommended,
  ...tseslint.configs.recommendedTypeChecked,
  {
    languageOptions: {
      parserOptions: {
        projectService: {
          // Files that no tsconfig includes: configuration, and one preload.
          allowDefaultProject: [
            'eslint.config.js',
            '.dependency-cruiser.cjs',
            'webapp/vite.config.ts',
            // A plain-JavaScript preload of the test processes (worker threads load it without tsx).
            'scripts/test-cpu-record.mjs',
            // The launcher of the test files' bundles (plain JavaScript, as the preload above).
            'scripts/test-launch.mjs',
          ],
        },
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A leading underscore marks a binding kept on purpose: a parameter a port's signature requires,
      // or a property taken out of an object by destructuring (`const { id: _id, ...rest } = x`).
      '@typescript-eslint/no-unused-vars': [
        'error',
        { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrorsIgnorePattern: '^_', ignoreRestSiblings: true },
      ],
    },
  },
  {
    // The dependency-cruiser rule file is CommonJS (dependency-cruiser loads it with require).
    files: ['**/*.cjs'],
    languageOptions: { sourceType: 'commonjs', globals: { module: 'writable', require: 'readonly' } },
  },
  {
    // Adapters over synchronous calls (SQLite, memory, the in-process bus, a core NATS publish)
    // implement the ports' Promise-returning methods as `async` functions without `await`: `async` is
    // what turns a thrown store error into a rejected promise, as the ports' contract suites expect.
    files: ['adapters/sqlite/**', 'adapters/memory/**', 'adapters/in-process/**', 'adapters/nats/**'],
    rules: { '@typescript-eslint/require-await': 'off' },
  },
  {
    // An event store's subscription is an async generator (there is no arrow form of one) that reads
    // the store's live fields (closed, floor) through `store`, the store itself.
    files: ['adapters/*/event-store.ts', 'test/helpers/faulty-event-store.ts'],
    rules: { '@typescript-eslint/no-this-alias': ['error', { allowedNames: ['store'] }] },
  },
  {
    // React ignores what an event handler returns; the web app's async handlers (`onClick={save}`)
    // report their own failures in the page. Promises handed elsewhere are still checked.
    files: ['webapp/src/**'],
    rules: { '@typescript-eslint/no-misused-promises': ['error', { checksVoidReturn: { attributes: false } }] },
  },
  {
    files: ['test/**'],
    rules: {
      // tap tracks every subtest itself: `t.test(...)` returns a promise that needs no await.
      '@typescript-eslint/no-floating-promises': [
        'error',
        { allowForKnownSafePromises: [{ from: 'package', name: 'PromiseWithSubtest', package: '@tapjs/core' }] },
      ],
      // Tests read wire bodies (`await res.json()`, parsed NDJSON, CSV rows) as `any` and assert their
      // values with tap; a type for every response would restate the spec's schemas in the tests.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      // Test messages and stand-ins print values whose shape is what the test is about.
      '@typescript-eslint/no-base-to-string': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Test callbacks and the fakes of Promise-returning ports are `async` for the shape they stand in
      // for, whether or not their body awaits.
      '@typescript-eslint/require-await': 'off',
    },
  },
);
