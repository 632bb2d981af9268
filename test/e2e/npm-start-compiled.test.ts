/**
 * `npm start` runs the compiled JavaScript (scripts/build-server.ts, tsconfig.build.json): the
 * service process is plain `node` on `dist/service/main.js` without the tsx loader; a pack job
 * succeeds on two worker threads (Node 20 cannot load `thread.ts` without a loader, so the pool
 * ran `dist/solver/thread.js`); and the files the server reads at run time are found from the
 * compiled modules: the OpenAPI document (its captured examples and the package version) equals
 * the one built from the sources, and the 3D viewer's page is served from the front-end build.
 * Then the compiled solver in a plain `node` process given a V8 heap flag (as a service unit may
 * start it): its threads inherit the flag and solve an example.
 */
import t from 'tap';
import { spawn, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { buildOpenApi } from '../../api/http/openapi/document.js';
import { ROUTE_MODULES } from '../../api/http/routes/index.js';
import { buildServer, serverBuildState } from '../../scripts/build-server.js';
import { exampleSolveScript } from '../helpers/solve-script.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dataDir = mkdtempSync(join(tmpdir(), 'packing-npm-start-compiled-'));
t.teardown(() => rmSync(dataDir, { recursive: true, force: true }));

t.test('npm start serves from compiled JavaScript, worker threads included', { timeout: 240_000 }, async (t) => {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      PACKING_DATA_DIR: dataDir,
      SOLVER_THREADS: '2',
      LOG_LEVEL: 'info',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  npm.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  const exited = new Promise<number | null>((ok) => npm.once('exit', (code) => ok(code)));
  const closed = new Promise<void>((ok) => npm.stdout.once('close', () => ok()));
  t.teardown(() => {
    if (npm.exitCode === null && npm.signalCode === null) npm.kill('SIGKILL');
  });
  const entries: { msg?: string; pid?: number; port?: number }[] = [];
  const listening = await new Promise<{ pid: number; port: number }>((ok, fail) => {
    createInterface({ input: npm.stdout }).on('line', (line) => {
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { msg?: string; pid: number; port: number };
      entries.push(entry);
      if (entry.msg === 'listening') ok(entry);
    });
    void exited.then((code) => fail(new Error(`npm exited (${code}) before listening:\n${stderr}`)));
  });
  t.teardown(() => {
    try {
      process.kill(listening.pid, 'SIGKILL');
    } catch {
      // Already gone.
    }
  });
  const url = `http://127.0.0.1:${listening.port}`;

  if (existsSync(`/proc/${listening.pid}/cmdline`)) {
    const argv = readFileSync(`/proc/${listening.pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    t.match(argv.at(-1), /dist\/service\/main\.js$/, 'the main module is the compiled dist/service/main.js');
    t.notOk(
      argv.some((a) => a.includes('tsx')),
      `no tsx loader on the command line: ${argv.join(' ')}`,
    );
    const nodeOptions = readFileSync(`/proc/${listening.pid}/environ`, 'utf8')
      .split('\0')
      .find((v) => v.startsWith('NODE_OPTIONS='));
    t.notMatch(nodeOptions ?? '', /tsx/, 'no tsx loader in NODE_OPTIONS');
  }

  const key = readFileSync(join(dataDir, 'demo-api-key'), 'utf8').trim();
  const submitted = await fetch(`${url}/v1/pack?wait=60`, {
    method: 'POST',
    headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' },
    body: readFileSync(join(ROOT, 'examples', 'eur-pallets-13-6m-trailer.json'), 'utf8'),
  });
  const job = (await submitted.json()) as { id: string; status: string };
  t.equal(job.status, 'succeeded', 'the pack job succeeded on the compiled worker threads');
  const result = (await (
    await fetch(`${url}/v1/jobs/${job.id}/result`, { headers: { authorization: `Bearer ${key}` } })
  ).json()) as { vehicles: { items_placed: number }[]; viewer_url: string };
  t.ok(result.vehicles.reduce((s, v) => s + v.items_placed, 0) > 0, 'the plan places units');

  const served = await (await fetch(`${url}/openapi.json`)).json();
  t.same(served, buildOpenApi(ROUTE_MODULES), 'the compiled service serves the OpenAPI document of the sources');

  const viewer = await fetch(result.viewer_url);
  t.equal(viewer.status, 200, 'the 3D viewer page is served (the front-end build found from dist/)');
  t.match(viewer.headers.get('content-type'), /^text\/html/);

  npm.kill('SIGTERM');
  await exited;
  await closed;
  t.equal(entries.at(-1)?.msg, 'stopped', 'a graceful stop');
});

t.test('the compiled solver solves under node --max-old-space-size', { timeout: 240_000 }, async (t) => {
  // dist/ is built by `npm start` in the test before (prestart); built here when run alone.
  if (serverBuildState() !== 'fresh') buildServer();
  const dist = join(ROOT, 'dist');
  const script = exampleSolveScript(dist, 'js');
  const file = join(dataDir, 'solve-compiled.mjs');
  writeFileSync(file, script);
  const r = spawnSync(process.execPath, ['--max-old-space-size=512', file], {
    cwd: ROOT,
    encoding: 'utf8',
    timeout: 200_000,
    // Plain node, as a service unit runs it: no loader from the test runner.
    env: { ...process.env, NODE_OPTIONS: '' },
  });
  t.equal(r.status, 0, r.stderr);
  t.match(r.stdout, /^solved [1-9]\d*$/m, 'the compiled threads, started with the V8 flag inherited, placed units');
});
