// dependency-cruiser rules: the layers of the service (docs/architecture.md, "Layers and their import rules").
// Each rule names the folders a layer may reach (outside(...) lists them); npm packages and Node
// built-ins are not checked.
// Run by `npm run lint` (npx depcruise --config .dependency-cruiser.cjs <source folders>).

/** Every top-level source folder of the repository. */
const folders = [
  'domain',
  'application',
  'api',
  'service',
  'adapters',
  'projections',
  'solver',
  'pdf',
  'display',
  'viewer',
  'webapp',
  'clients',
  'scripts',
  'test',
];

/** A path pattern matching every source folder except the given ones. */
function outside(...allowed) {
  return `^(${folders.filter((f) => !allowed.includes(f)).join('|')})/`;
}

/** @type {import('dependency-cruiser').IConfiguration} */
module.exports = {
  forbidden: [
    {
      name: 'domain-stands-alone',
      comment: 'domain/ (deciders, processes, ports) imports nothing outside domain/.',
      severity: 'error',
      from: { path: '^domain/' },
      to: { path: outside('domain') },
    },
    {
      name: 'display-stands-alone',
      comment: 'display/ (units, text, item colours, shared by pdf, viewer and web app) imports only display/.',
      severity: 'error',
      from: { path: '^display/' },
      to: { path: outside('display') },
    },
    {
      name: 'solver-on-domain',
      comment: 'solver/ (PackModel to verified Plan) imports only domain/.',
      severity: 'error',
      from: { path: '^solver/' },
      to: { path: outside('solver', 'domain') },
    },
    {
      name: 'pdf-on-solver',
      comment: 'pdf/ (the plan renderer) imports only domain/, solver/ and display/.',
      severity: 'error',
      from: { path: '^pdf/' },
      to: { path: outside('pdf', 'domain', 'solver', 'display') },
    },
    {
      name: 'projections-on-domain',
      comment: 'projections/ (read models) import only domain/ and projections/.',
      severity: 'error',
      from: { path: '^projections/' },
      to: { path: outside('projections', 'domain') },
    },
    {
      name: 'adapters-implement-ports',
      comment: 'adapters/ (stores, buses, health decorators) import only domain/, projections/ and adapters/.',
      severity: 'error',
      from: { path: '^adapters/' },
      to: { path: outside('adapters', 'domain', 'projections') },
    },
    {
      name: 'application-below-edges',
      comment:
        'application/ (use cases shared by HTTP, the web app and the admin CLI) imports only domain/, ' +
        'projections/ and solver/ (pure plan computing: plan revisions check edits with the verifier): never the ' +
        'edges (api/), the composition root (service/), adapters or front-end sources.',
      severity: 'error',
      from: { path: '^application/' },
      to: { path: outside('application', 'domain', 'projections', 'solver') },
    },
    {
      name: 'api-below-service',
      comment:
        'api/ (the HTTP edge and the web app backend) imports application/, domain/, projections/, ' +
        'adapters/, solver/, pdf/ and display/: never the composition root (service/) or front-end ' +
        'sources (viewer/, webapp/); it serves their built folders only.',
      severity: 'error',
      from: { path: '^api/' },
      to: { path: outside('api', 'application', 'domain', 'projections', 'adapters', 'solver', 'pdf', 'display') },
    },
    {
      name: 'no-circular',
      comment: 'No module reaches itself through its imports.',
      severity: 'error',
      from: {},
      to: { circular: true },
    },
    {
      name: 'not-to-unresolvable',
      comment: 'Every relative import resolves to a file.',
      severity: 'error',
      from: {},
      to: { couldNotResolve: true, path: '^[.]' },
    },
  ],
  options: {
    doNotFollow: { path: 'node_modules' },
    exclude: { path: '(^|/)(node_modules|dist|generated)/' },
    tsPreCompilationDeps: true,
    tsConfig: { fileName: 'tsconfig.json' },
    reporterOptions: { text: { highlightFocused: true } },
  },
};
