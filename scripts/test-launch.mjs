// How npm test starts a test file's bundle: tap runs a two-line launcher
// (`.tap/bundles/launch/test/a.test.mjs`, scripts/test-bundles.ts), which runs the bundle
// (`.tap/bundles/test/a.test.mjs`) in a child process with the launcher's Node options minus tap's
// `@tapjs/processinfo` preload. That preload serves tap's coverage and `--changed`, both unused
// here (package.json `tap.disable-coverage`), yet it registers a module loader thread through
// which every import of the process and of every process it starts passes: about 0.4 CPU-s more
// per test file, measured with the launcher's cost counted (docs/testing.md). The launcher relays
// tap's IPC messages (timeouts, comments) both ways and tap's signals to the child, and exits as
// the child does. Plain JavaScript: it runs where TypeScript cannot be loaded.
import { spawn } from 'node:child_process';
import process from 'node:process';
import { fileURLToPath } from 'node:url';

/** The Node options of tap's processinfo preload (`--import=…/@tapjs/processinfo/dist/esm/import.mjs`). */
const PROCESSINFO = /@tapjs[\\/]processinfo/;
/** Set in a launched bundle's environment: it ends when its launcher does (see below). */
const LAUNCHED = 'PACKING_TEST_LAUNCHED';
/** The signals tap sends a test process (SIGALRM on a timeout) or a user sends the run. */
/** @type {NodeJS.Signals[]} */
const RELAYED = ['SIGTERM', 'SIGINT', 'SIGHUP', 'SIGALRM'];

/**
 * `NODE_OPTIONS` without processinfo's preload; undefined when nothing is left.
 * @param {string} options
 * @returns {string | undefined}
 */
const withoutProcessinfo = (options) => {
  const kept = options.split(/\s+/).filter((option) => option !== '' && !PROCESSINFO.test(option));
  return kept.length > 0 ? kept.join(' ') : undefined;
};

/**
 * Runs the bundle at `bundle` (a file URL) in a child process, as tap would have run it:
 * the launcher's Node options and arguments, its stdin, stdout and stderr, an IPC channel, and
 * the environment without processinfo's preload (processinfo adds it to every child's
 * `NODE_OPTIONS` at spawn; this listener runs after processinfo's and takes it out again).
 * The launcher's exit code is the child's; a child killed by a signal kills the launcher with it.
 * Resolves once the child is started.
 * @param {URL} bundle
 * @returns {Promise<void>}
 */
export async function launch(bundle) {
  // Loaded here, not in a launched bundle: loading it wraps the process's spawn functions.
  const { default: onSpawn } = await import('process-on-spawn');
  onSpawn.addListener((spawned) => {
    if (typeof spawned.env?.NODE_OPTIONS !== 'string') return;
    const options = withoutProcessinfo(spawned.env.NODE_OPTIONS);
    if (options === undefined) delete spawned.env.NODE_OPTIONS;
    else spawned.env.NODE_OPTIONS = options;
  });
  const execArgv = [...process.execArgv.filter((option) => !PROCESSINFO.test(option)), `--import=${import.meta.url}`];
  const child = spawn(process.execPath, [...execArgv, fileURLToPath(bundle), ...process.argv.slice(2)], {
    stdio: ['inherit', 'inherit', 'inherit', 'ipc'],
    env: { ...process.env, [LAUNCHED]: '1' },
  });
  child.on('message', (message) => process.send?.(message));
  process.on('message', (message) => {
    if (child.connected) child.send(message);
  });
  /** @type {[NodeJS.Signals, () => void][]} */
  const relays = RELAYED.map((signal) => {
    const relay = () => child.kill(signal);
    process.on(signal, relay);
    return [signal, relay];
  });
  child.on('error', (error) => {
    process.stderr.write(`could not start ${bundle.href}: ${error.message}\n`);
    process.exitCode = 1;
  });
  child.on('exit', (code, signal) => {
    for (const [name, relay] of relays) process.off(name, relay);
    process.channel?.unref();
    if (signal !== null) {
      // As the child ended: by its signal, which no handler may catch now (processinfo's
      // signal-exit handler would turn it into an exit code).
      process.removeAllListeners(signal);
      process.kill(process.pid, signal);
    } else process.exitCode = code ?? 1;
  });
}

// In a launched bundle (the launcher preloads this file there): when the launcher is gone (tap killed it after a timeout), the IPC
// channel closes; the bundle ends too, so no orphan holds tap's output open.
if (process.env[LAUNCHED] === '1' && process.channel !== undefined) {
  process.on('disconnect', () => process.kill(process.pid, 'SIGKILL'));
}
