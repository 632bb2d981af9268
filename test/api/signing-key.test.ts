/**
 * The PDF links' signing key (service/signing-key.ts): processes that start on one data dir at the
 * same moment all read the same whole key (a CI run once saw an API replica read the key file
 * while another was still writing it, and refuse to start); an operator's file is read as given.
 */
import t from 'tap';
import { spawn } from 'node:child_process';
import { mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { signingKey } from '../../service/signing-key.js';
import { nodeChild } from '../helpers/node-child.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));
const dir = mkdtempSync(join(tmpdir(), 'packing-signing-key-'));
t.teardown(() => rmSync(dir, { recursive: true, force: true }));

/**
 * A process that loads the module, says "ready", and on the line "go" reads the key of `dataDir`
 * and prints it (hex) or its error; resolves with the process's lines once it exits.
 */
function contender(dataDir: string): { ready: Promise<void>; go(): void; done: Promise<string[]> } {
  const script = `
    import { createInterface } from 'node:readline';
    const { signingKey } = await import('./service/signing-key.ts');
    console.log('ready');
    createInterface({ input: process.stdin }).once('line', () => {
      try { console.log('key ' + signingKey(${JSON.stringify(dataDir)}).toString('hex')); }
      catch (err) { console.log('error ' + err.message); }
      process.exit(0);
    });`;
  const child = spawn(...nodeChild(['--import', 'tsx', '--input-type=module', '-e', script]), {
    cwd: ROOT,
    stdio: ['pipe', 'pipe', 'inherit'],
  });
  const lines: string[] = [];
  let markReady: () => void = () => {};
  const ready = new Promise<void>((resolve) => (markReady = resolve));
  createInterface({ input: child.stdout }).on('line', (line) => {
    lines.push(line);
    if (line === 'ready') markReady();
  });
  const done = new Promise<string[]>((resolve) => child.once('close', () => resolve(lines)));
  return { ready, go: () => child.stdin.write('go\n'), done };
}

t.test('processes starting together on one data dir all get the same whole key', async (t) => {
  for (let round = 0; round < 3; round++) {
    const dataDir = mkdtempSync(join(dir, `round-${round}-`));
    const contenders = Array.from({ length: 6 }, () => contender(dataDir));
    await Promise.all(contenders.map((c) => c.ready));
    for (const c of contenders) c.go();
    const outputs = await Promise.all(contenders.map((c) => c.done));
    const keys = outputs.map(
      (lines) => lines.find((l) => l.startsWith('key ') || l.startsWith('error ')) ?? '(nothing)',
    );
    t.same(
      keys.filter((k) => !k.startsWith('key ')),
      [],
      `round ${round}: no process failed`,
    );
    t.equal(new Set(keys).size, 1, `round ${round}: one key for all`);
    const onDisk = readFileSync(join(dataDir, 'signing-key'), 'utf8');
    t.match(onDisk, /^[0-9a-f]{64}$/, 'the file holds 32 random bytes in hex');
    t.equal(keys[0], `key ${onDisk}`, 'the key the processes use is the one on disk');
    t.same(readdirSync(dataDir), ['signing-key'], 'no draft file is left behind');
  }
});

t.test('a second start keeps the key; an operator file is read as given and a short one refused', async (t) => {
  const dataDir = mkdtempSync(join(dir, 'again-'));
  const first = signingKey(dataDir);
  t.equal(first.length, 32);
  t.same(signingKey(dataDir), first, 'the same key on the next start');
  const file = join(dir, 'operator-key');
  writeFileSync(file, `${'ab'.repeat(20)}\n`);
  t.same(signingKey(dataDir, file), Buffer.from('ab'.repeat(20), 'hex'), 'the operator file wins over the data dir');
  writeFileSync(file, 'abcd');
  t.throws(() => signingKey(dataDir, file), /must be at least 32 hex digits/);
});
