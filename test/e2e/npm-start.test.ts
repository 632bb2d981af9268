/**
 * `npm start` as an operator runs it: SIGTERM or SIGINT to the npm process
 * stops the service (no orphan node process left answering), and a port in use is refused with
 * one line and exit code 1.
 */
import t from 'tap';
import { spawn, type ChildProcess } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { createServer, type AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const base = mkdtempSync(join(tmpdir(), 'packing-npm-start-'));
const started: ChildProcess[] = [];
const servicePids: number[] = [];
t.teardown(() => {
  for (const child of started) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  // A failing run leaves the orphan this test is about: end it by its pid.
  for (const pid of servicePids) if (alive(pid)) process.kill(pid, 'SIGKILL');
  rmSync(base, { recursive: true, force: true });
});

interface NpmStart {
  npm: ChildProcess;
  /** npm's exit (its code) and stderr so far. */
  exited: Promise<{ code: number | null; stderr: string }>;
  /** npm's stdout closed: every process holding it (npm, the service) has ended. */
  closed: Promise<void>;
  lines: string[];
}

function npmStart(dataDir: string, env: Record<string, string>): NpmStart {
  const npm = spawn('npm', ['start', '--silent'], {
    cwd: ROOT,
    env: {
      ...process.env,
      HOST: '127.0.0.1',
      PORT: '0',
      PACKING_DATA_DIR: dataDir,
      SOLVER_THREADS: '1',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  started.push(npm);
  const lines: string[] = [];
  let stderr = '';
  npm.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  createInterface({ input: npm.stdout }).on('line', (line) => lines.push(line));
  const closed = new Promise<void>((ok) => npm.stdout.once('close', () => ok()));
  const exited = new Promise<{ code: number | null; stderr: string }>((ok) =>
    npm.once('exit', (code) => ok({ code, stderr })),
  );
  return { npm, exited, closed, lines };
}

/** Resolves with the first JSON log line whose msg is `msg` (rejects if npm exits first). */
function logLine(run: NpmStart, msg: string): Promise<{ pid: number; port?: number }> {
  return new Promise((ok, fail) => {
    const seen = (line: string): boolean => {
      if (!line.startsWith('{')) return false;
      const entry = JSON.parse(line) as { msg?: string; pid: number; port?: number };
      if (entry.msg !== msg) return false;
      ok(entry);
      return true;
    };
    if (run.lines.some(seen)) return;
    const reader = createInterface({ input: run.npm.stdout! });
    reader.on('line', (line) => {
      if (seen(line)) reader.close();
    });
    void run.exited.then(({ stderr }) =>
      fail(new Error(`npm exited before "${msg}":\n${run.lines.join('\n')}\n${stderr}`)),
    );
  });
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (err) {
    return (err as NodeJS.ErrnoException).code !== 'ESRCH';
  }
}

/** Waits until `pid` is gone, checking every 50 ms for at most `ms`; true when it is gone. */
async function gone(pid: number, ms: number): Promise<boolean> {
  for (let waited = 0; waited < ms; waited += 50) {
    if (!alive(pid)) return true;
    await new Promise((ok) => setTimeout(ok, 50));
  }
  return !alive(pid);
}

for (const signal of ['SIGTERM', 'SIGINT'] as const) {
  t.test(`${signal} to the npm process stops the service`, { timeout: 60_000 }, async (t) => {
    const run = npmStart(join(base, signal), {});
    const listening = await logLine(run, 'listening');
    servicePids.push(listening.pid);
    const url = `http://127.0.0.1:${listening.port}`;
    t.not(listening.pid, run.npm.pid, 'the service is a child of npm, not npm itself');
    t.equal((await fetch(`${url}/health`)).status, 200, 'it answers before the signal');
    run.npm.kill(signal);
    await run.exited;
    t.ok(await gone(listening.pid, 10_000), `the node process ${listening.pid} is gone`);
    await t.rejects(fetch(`${url}/health`), 'the port refuses connections');
    await run.closed;
    const entries = run.lines
      .filter((l) => l.startsWith('{'))
      .map((l) => JSON.parse(l) as { msg: string; signal?: string });
    t.equal(entries.find((e) => e.msg === 'stopping')?.signal, signal, `the service itself received ${signal}`);
    t.equal(entries.at(-1)?.msg, 'stopped', 'a graceful stop: "stopped" is the last log line');
  });
}

t.test('the service stops when npm dies without passing a signal on (kill -9)', { timeout: 60_000 }, async (t) => {
  const run = npmStart(join(base, 'npm-killed'), {});
  const listening = await logLine(run, 'listening');
  servicePids.push(listening.pid);
  run.npm.kill('SIGKILL');
  await run.exited;
  t.ok(await gone(listening.pid, 15_000), `the node process ${listening.pid} is gone`);
  await run.closed;
  const entries = run.lines
    .filter((l) => l.startsWith('{'))
    .map((l) => JSON.parse(l) as { msg: string; reason?: string });
  t.match(
    entries.find((e) => e.msg === 'stopping')?.reason,
    /parent process, has exited/,
    'it noticed that npm was gone',
  );
  t.equal(entries.at(-1)?.msg, 'stopped', 'a graceful stop');
});

t.test('a port in use: one line, exit code 1, nothing written to the data dir', { timeout: 60_000 }, async (t) => {
  const holder = createServer();
  await new Promise<void>((ok) => holder.listen(0, '127.0.0.1', ok));
  t.teardown(() => holder.close());
  const port = (holder.address() as AddressInfo).port;
  const run = npmStart(join(base, 'port-in-use'), { PORT: String(port), LOG_LEVEL: 'warn' });
  const { code, stderr } = await run.exited;
  t.equal(code, 1, 'exit code 1');
  // npm adds its own "npm error …" lines after a failed script; the service says one line.
  const own = stderr.split('\n').filter((l) => l.trim() !== '' && !l.startsWith('npm '));
  t.same(own, [`refusing to start: port ${port} on 127.0.0.1 is in use (EADDRINUSE)`], stderr);
  t.notOk(
    run.lines.some((l) => l.includes('EADDRINUSE') && l.includes('    at ')),
    'no stack trace',
  );
  // The port is bound before the data dir is touched: no dir, no demo organization, no key file.
  t.notOk(existsSync(join(base, 'port-in-use')), 'the data dir was not even created');
});
