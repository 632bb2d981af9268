/**
 * The launcher npm test runs each bundle through (scripts/test-launch.mjs), run as tap runs it:
 * a Node process with tap's processinfo preload. The bundle runs without that preload, in its
 * options and in its `NODE_OPTIONS`; IPC messages pass both ways; the exit code and a relayed
 * signal come back as the launcher's; and a bundle whose launcher is killed ends too.
 */
import t, { type Test } from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { REPO_ROOT } from '../../scripts/test-phases.js';

const PROCESSINFO = join(REPO_ROOT, 'node_modules', '@tapjs', 'processinfo', 'dist', 'esm', 'import.mjs');
const LAUNCH = pathToFileURL(join(REPO_ROOT, 'scripts', 'test-launch.mjs')).href;

/** A folder with `bundle.mjs` (the given code) and `launcher.mjs`, as scripts/test-bundles.ts writes one. */
function launchable(t: Test, bundle: string): string {
  const dir = mkdtempSync(join(REPO_ROOT, '.tap', 'launch-probe-'));
  t.teardown(() => rmSync(dir, { recursive: true, force: true }));
  writeFileSync(join(dir, 'bundle.mjs'), bundle);
  writeFileSync(
    join(dir, 'launcher.mjs'),
    `import { launch } from ${JSON.stringify(LAUNCH)};\nawait launch(new URL('./bundle.mjs', import.meta.url));\n`,
  );
  return dir;
}

/** Starts the launcher in `dir` as tap starts a test file: processinfo preloaded, an IPC channel. */
function startLauncher(dir: string): ChildProcess {
  return spawn(process.execPath, [`--import=${pathToFileURL(PROCESSINFO).href}`, join(dir, 'launcher.mjs')], {
    cwd: dir,
    stdio: ['ignore', 'pipe', 'inherit', 'ipc'],
    env: { ...process.env, NODE_OPTIONS: '', _TAPJS_PROCESSINFO_EXCLUDE_: '/./' },
  });
}

/** The first stdout line of `child`, parsed. */
function firstLine(child: ChildProcess): Promise<Record<string, unknown>> {
  return new Promise((resolve, reject) => {
    let seen = '';
    child.stdout!.on('data', (chunk: Buffer) => {
      seen += chunk.toString('utf8');
      const end = seen.indexOf('\n');
      if (end >= 0) resolve(JSON.parse(seen.slice(0, end)) as Record<string, unknown>);
    });
    child.once('exit', () => reject(new Error(`exited before a line; saw ${JSON.stringify(seen)}`)));
  });
}

const exitOf = (child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null }> =>
  new Promise((resolve) => child.once('exit', (code, signal) => resolve({ code, signal })));

t.test('the bundle runs without processinfo; messages pass both ways; its exit code is the launcher’s', async (t) => {
  t.ok(existsSync(PROCESSINFO), 'tap’s processinfo preload is where tap takes it from');
  const dir = launchable(
    t,
    [
      'console.log(JSON.stringify({ execArgv: process.execArgv, nodeOptions: process.env.NODE_OPTIONS ?? null }));',
      "process.send({ from: 'bundle' });",
      "process.on('message', (m) => { if (m.reply === 2) process.exit(3); });",
      '',
    ].join('\n'),
  );
  const launcher = startLauncher(dir);
  const exited = exitOf(launcher);
  const fromBundle = new Promise<unknown>((resolve) => launcher.once('message', resolve));
  const seen = await firstLine(launcher);
  t.same(await fromBundle, { from: 'bundle' }, 'a message of the bundle reaches tap');
  launcher.send({ reply: 2 });
  t.same(await exited, { code: 3, signal: null }, "the launcher ends with the bundle's exit code");
  const execArgv = seen['execArgv'] as string[];
  t.notOk(
    execArgv.some((a) => a.includes('processinfo')),
    `no processinfo in the bundle's options: ${execArgv.join(' ')}`,
  );
  t.ok(execArgv.includes(`--import=${LAUNCH}`), 'the bundle preloads the launcher module (its watchdog)');
  t.notOk(String(seen['nodeOptions'] ?? '').includes('processinfo'), "nor in the bundle's NODE_OPTIONS");
});

t.test('a signal to the launcher reaches the bundle, and the launcher ends by it', async (t) => {
  const dir = launchable(t, 'console.log(JSON.stringify({ pid: process.pid }));\nsetInterval(() => {}, 1000);\n');
  const launcher = startLauncher(dir);
  const exited = exitOf(launcher);
  await firstLine(launcher);
  launcher.kill('SIGTERM');
  t.same(await exited, { code: null, signal: 'SIGTERM' });
});

t.test('a bundle whose launcher is killed outright ends too (no orphan holds tap’s output)', async (t) => {
  const dir = launchable(t, 'console.log(JSON.stringify({ pid: process.pid }));\nsetInterval(() => {}, 1000);\n');
  const launcher = startLauncher(dir);
  const exited = exitOf(launcher);
  const { pid } = (await firstLine(launcher)) as { pid: number };
  launcher.kill('SIGKILL');
  t.same(await exited, { code: null, signal: 'SIGKILL' });
  // The bundle's process is not the test's child: it is gone once signalling it fails, or
  // (Linux) once it is a zombie that no init process has reaped yet.
  const alive = (): boolean => {
    try {
      process.kill(pid, 0);
    } catch {
      return false;
    }
    const stat = existsSync(`/proc/${pid}/stat`) ? readFileSync(`/proc/${pid}/stat`, 'utf8') : '';
    return !/^\d+ \(.*\) Z/.test(stat);
  };
  const deadline = Date.now() + 10_000;
  while (alive() && Date.now() < deadline) await new Promise((r) => setTimeout(r, 20));
  t.notOk(alive(), `the bundle (pid ${pid}) ended with its launcher`);
});
