/**
 * The command-line fronts' usage: every admin subcommand and option carries
 * help text, `--help` exits 0 without touching the data dir, usage errors exit 2, and
 * `replay-billing --org` with an organization the log lacks exits 2 with a message.
 */
import t from 'tap';
import { execFile } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { program } from '../../scripts/admin.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-admin-help-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/** Runs a script with the data dir `dataDir`: exit code, stdout, stderr. */
function run(
  script: string,
  args: string[],
  dataDir: string,
): Promise<{ code: number; stdout: string; stderr: string }> {
  return new Promise((resolve) => {
    execFile(
      ...nodeChild(['--import', 'tsx', script, ...args]),
      { cwd: ROOT, env: { ...process.env, PACKING_DATA_DIR: dataDir, PACKING_EVENT_STORE: 'sqlite' } },
      (err, stdout, stderr) => resolve({ code: err ? Number((err as { code?: unknown }).code) : 0, stdout, stderr }),
    );
  });
}

t.test('every admin subcommand, argument and option has help text', async (t) => {
  const names = program.commands.map((c) => c.name());
  for (const wanted of [
    'create-org',
    'create-key',
    'list-orgs',
    'maintenance',
    'disable-api',
    'enable-api',
    'suspend-org',
    'reactivate-org',
    'backup',
  ]) {
    t.ok(names.includes(wanted), `${wanted} is a subcommand`);
  }
  for (const c of program.commands) {
    t.ok(c.description().length >= 20, `${c.name()}: a description`);
    for (const o of c.options) t.ok(o.description.length > 0, `${c.name()} ${o.long}: help text`);
    for (const a of c.registeredArguments) t.ok(a.description.length > 0, `${c.name()} <${a.name()}>: help text`);
    t.match(c.helpInformation(), c.description().slice(0, 20), `${c.name()} --help shows the description`);
  }
});

t.test('--help exits 0 and creates nothing; a usage error exits 2', async (t) => {
  const fresh = join(dir, 'never-made');
  const help = await run('scripts/admin.ts', ['backup', '--help'], fresh);
  t.equal(help.code, 0);
  t.match(help.stdout, /--to <dir>/);
  t.match(help.stdout, /online backup/);
  t.notOk(existsSync(fresh), 'no data dir made for --help');
  const bad = await run('scripts/admin.ts', ['maintenance', 'sideways'], fresh);
  t.equal(bad.code, 2, 'maintenance sideways exits 2');
  t.match(bad.stderr, /Allowed choices are on, off/);
});

t.test('replay-billing --org with an organization not in the log exits 2 with a message', async (t) => {
  const made = await run('scripts/admin.ts', ['create-org', '--name', 'Known'], dir);
  t.equal(made.code, 0, made.stderr);
  const known = (JSON.parse(made.stdout) as { org_id: string }).org_id;
  const unknown = await run('scripts/replay-billing.ts', ['--org', 'org_unknown'], dir);
  t.equal(unknown.code, 2);
  t.match(unknown.stderr, 'no organization org_unknown in the log');
  t.equal(unknown.stdout, '', 'no table');
  const ok = await run('scripts/replay-billing.ts', ['--org', known], dir);
  t.equal(ok.code, 0, ok.stderr);
  t.match(ok.stdout, known);
  t.match(ok.stdout, / 0 differences/);
});
