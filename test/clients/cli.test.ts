/**
 * The `packing` command (clients/typescript/src/cli) against the real service:
 * `pack --wait --pdf` writes a real PDF (run as a child process, as a user runs it), exit codes by
 * error class, the key from PACKING_API_KEY or a 0600 config file (a config file others can read
 * is refused), and `--help` on every command.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { chmodSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { inProcessService, orgWithKey } from '../helpers/in-process-service.js';
import { run } from '../../clients/typescript/src/cli/program.js';
import { EXIT } from '../../clients/typescript/src/cli/exit-codes.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const EXAMPLE = join(ROOT, 'examples/eur-pallets-13-6m-trailer.json');
const dir = mkdtempSync(join(tmpdir(), 'packing-cli-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));
const running = inProcessService(t, 'cli');
let key: string;
t.before(async () => {
  key = (await orgWithKey(running.service)).key;
});

/** Env of a CLI run: the service's address, no config file unless given, and `extra`. */
const envFor = (extra: Record<string, string> = {}): NodeJS.ProcessEnv => ({
  PATH: process.env['PATH'],
  HOME: dir,
  PACKING_CONFIG: join(dir, 'absent.json'),
  PACKING_API_URL: running.service.url,
  ...extra,
});

/** Runs the CLI as a child process (`node --import tsx …/cli/main.ts`). */
function cli(args: string[], env: NodeJS.ProcessEnv): Promise<{ code: number; stdout: string; stderr: string }> {
  const child = spawn(...nodeChild(['--import', 'tsx', 'clients/typescript/src/cli/main.ts', ...args]), {
    cwd: ROOT,
    env,
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stdout = '';
  let stderr = '';
  child.stdout.on('data', (c: Buffer) => (stdout += c.toString()));
  child.stderr.on('data', (c: Buffer) => (stderr += c.toString()));
  return new Promise((resolve) => child.once('close', (code) => resolve({ code: code ?? -1, stdout, stderr })));
}

/** Runs the CLI in this process (fast; for help and exit codes). */
async function cliHere(
  args: string[],
  env: NodeJS.ProcessEnv,
): Promise<{ code: number; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  const sink = (append: (s: string) => void) =>
    new Writable({
      write(chunk: Buffer, _enc, done) {
        append(chunk.toString());
        done();
      },
    }) as unknown as NodeJS.WriteStream;
  const code = await run(args, { env, stdout: sink((s) => (stdout += s)), stderr: sink((s) => (stderr += s)) });
  return { code, stdout, stderr };
}

t.test('pack --wait --pdf writes a real PDF and prints the finished job', async (t) => {
  const out = join(dir, 'plan.pdf');
  const res = await cli(['pack', EXAMPLE, '--wait', '--pdf', out], envFor({ PACKING_API_KEY: key }));
  t.equal(res.code, 0, res.stderr);
  t.match(res.stdout, /^job_[a-z0-9]+\tsucceeded 33\/33 placed in 1 vehicle/);
  t.match(res.stderr, /succeeded \[#+\] 33\/33 placed/, 'progress on stderr');
  const pdf = readFileSync(out);
  t.equal(pdf.subarray(0, 5).toString('latin1'), '%PDF-');
  t.ok(pdf.length > 1000, `${pdf.length} bytes`);
});

t.test('pack --json prints the job; jobs get, list and result find it', async (t) => {
  const env = envFor({ PACKING_API_KEY: key });
  const created = await cliHere(['pack', EXAMPLE, '--json', '--wait'], env);
  t.equal(created.code, 0, created.stderr);
  const job = JSON.parse(created.stdout);
  t.equal(job.status, 'succeeded');
  const got = await cliHere(['jobs', 'get', job.id], env);
  t.equal(JSON.parse(got.stdout).id, job.id);
  const list = await cliHere(['jobs', 'list', '--all', '--json', '--status', 'succeeded'], env);
  t.ok(JSON.parse(list.stdout).some((j: { id: string }) => j.id === job.id));
  const result = await cliHere(['jobs', 'result', job.id], env);
  t.equal(JSON.parse(result.stdout).job_id, job.id);
  const cancel = await cliHere(['jobs', 'cancel', job.id], env);
  t.equal(cancel.code, EXIT.conflict, 'canceling a finished job: 409 → exit 6');
  t.match(cancel.stderr, /job_already_finished/);
});

t.test('exit codes by error class', async (t) => {
  const env = envFor({ PACKING_API_KEY: key });
  const bad = join(dir, 'bad.json');
  writeFileSync(bad, JSON.stringify({ vehicles: [{ vehicle_id: 'rigid-7-5t' }], items: [] }));
  const invalid = await cliHere(['pack', bad], env);
  t.equal(invalid.code, EXIT.validation, '422 → 3');
  t.match(invalid.stderr, /validation_failed/);
  t.match(invalid.stderr, /items: out_of_range/, 'details listed');
  t.equal((await cliHere(['estimate', bad], env)).code, EXIT.validation, 'an invalid estimate → 3');
  t.equal((await cliHere(['jobs', 'get', 'job_nope'], env)).code, EXIT.notFound, '404 → 5');
  t.equal(
    (await cliHere(['balance'], envFor({ PACKING_API_KEY: `pk_live_${'x'.repeat(40)}` }))).code,
    EXIT.auth,
    '401 → 4',
  );
  t.equal((await cliHere(['pack', join(dir, 'missing.json')], env)).code, EXIT.usage, 'unreadable file → 2');
  t.equal((await cliHere(['jobs', 'frobnicate'], env)).code, EXIT.usage, 'unknown command → 2');
  t.equal(
    (await cliHere(['balance'], envFor({ PACKING_API_URL: 'http://127.0.0.1:1', PACKING_API_KEY: key }))).code,
    EXIT.unavailable,
    'no connection → 9',
  );
});

t.test('the key comes from PACKING_API_KEY or a config file with mode 0600', async (t) => {
  const none = await cliHere(['balance'], envFor());
  t.equal(none.code, EXIT.auth);
  t.match(none.stderr, /no API key: set PACKING_API_KEY/);
  const config = join(dir, 'config.json');
  writeFileSync(config, JSON.stringify({ api_key: key, api_url: running.service.url }));
  chmodSync(config, 0o644);
  const open = await cliHere(['balance'], { ...envFor(), PACKING_CONFIG: config, PACKING_API_URL: '' });
  t.equal(open.code, EXIT.auth, 'a config file others can read is refused');
  t.match(open.stderr, /chmod 600/);
  chmodSync(config, 0o600);
  const ok = await cliHere(['balance'], { ...envFor(), PACKING_CONFIG: config, PACKING_API_URL: '' });
  t.equal(ok.code, 0, ok.stderr);
  t.equal(JSON.parse(ok.stdout).available_credits > 0, true);
  const help = await cliHere(['--help'], envFor());
  t.notMatch(help.stdout, /--api-key|--key/, 'no option takes the key');
});

t.test('saved records: create, get, list, delete', async (t) => {
  const env = envFor({ PACKING_API_KEY: key });
  const file = join(dir, 'vehicle.json');
  writeFileSync(
    file,
    JSON.stringify({ name: 'CLI trailer', type: 'trailer', length: 1200, width: 245, height: 260, max_weight: 20_000 }),
  );
  const created = JSON.parse((await cliHere(['vehicles', 'create', file], env)).stdout);
  t.match(created.id, /^veh_/);
  t.equal(JSON.parse((await cliHere(['vehicles', 'get', created.id], env)).stdout).name, 'CLI trailer');
  t.match((await cliHere(['vehicles', 'list', '--all'], env)).stdout, new RegExp(`${created.id}\tCLI trailer`));
  t.same(JSON.parse((await cliHere(['vehicles', 'delete', created.id], env)).stdout), {
    id: created.id,
    object: 'vehicle',
    deleted: true,
  });
  t.equal((await cliHere(['vehicles', 'get', created.id], env)).code, EXIT.notFound);
  t.equal((await cliHere(['templates', 'list', '--json'], env)).code, 0);
  t.equal((await cliHere(['projects', 'list', '--json'], env)).code, 0);
  t.equal((await cliHere(['usage'], env)).code, 0);
});

t.test('--help on every command', async (t) => {
  const commands = [
    [],
    ['pack'],
    ['estimate'],
    ['jobs'],
    ['jobs', 'list'],
    ['jobs', 'get'],
    ['jobs', 'cancel'],
    ['jobs', 'result'],
    ['balance'],
    ['usage'],
    ...['vehicles', 'templates', 'projects'].flatMap((r) => [
      [r],
      [r, 'list'],
      [r, 'get'],
      [r, 'create'],
      [r, 'delete'],
    ]),
  ];
  for (const path of commands) {
    const res = await cliHere([...path, '--help'], envFor());
    t.equal(res.code, 0, `${path.join(' ') || 'packing'} --help exits 0`);
    t.match(
      res.stdout,
      new RegExp(`^Usage: packing${path.length ? ` ${path.join(' ')}` : ''} `),
      `${path.join(' ') || 'packing'} --help shows its usage`,
    );
  }
});
