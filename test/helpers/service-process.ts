/**
 * Starts the real service as a child process on a free port and a given data dir (compiled
 * `dist/service/main.js` when fresh, else `service/main.ts` under tsx: test/helpers/node-child.ts);
 * resolves when its log says "listening" (a known log line, no sleeps).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import { nodeChild } from './node-child.js';
import { serviceMainArgs } from './compiled-service.js';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

export interface ServiceProcess {
  url: string;
  key: string;
  child: ChildProcess;
  logs: string[];
  /** SIGTERM (graceful) or SIGKILL (crash); resolves when the process has exited. */
  stop(signal?: 'SIGTERM' | 'SIGKILL'): Promise<void>;
}

/** Starts the service of checkout `root` (default this one) on `dataDir` with `env` added to this process's environment. */
export async function startServiceProcess(
  dataDir: string,
  env: Record<string, string> = {},
  root = ROOT,
): Promise<ServiceProcess> {
  const main = nodeChild(serviceMainArgs(root));
  const child = spawn(...main, {
    cwd: root,
    env: {
      ...process.env,
      PORT: '0',
      HOST: '127.0.0.1',
      PACKING_DATA_DIR: dataDir,
      SOLVER_THREADS: '2',
      LOG_LEVEL: 'info',
      ...env,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const exited = new Promise<void>((resolve) => child.once('exit', () => resolve()));
  child.stderr.on('data', (chunk: Buffer) => logs.push(chunk.toString()));
  const url = await new Promise<string>((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`service did not start:\n${logs.join('\n')}`)), 60_000);
    void exited.then(() => reject(new Error(`service exited before listening:\n${logs.join('\n')}`)));
    createInterface({ input: child.stdout }).on('line', (line) => {
      logs.push(line);
      if (!line.startsWith('{')) return;
      const entry = JSON.parse(line) as { msg?: string; port?: number };
      if (entry.msg === 'listening') {
        clearTimeout(timer);
        resolve(`http://127.0.0.1:${entry.port}`);
      }
    });
  });
  const key = readFileSync(join(dataDir, 'demo-api-key'), 'utf8').trim();
  return {
    url,
    key,
    child,
    logs,
    stop: async (signal = 'SIGTERM') => {
      if (child.exitCode === null) child.kill(signal);
      await exited;
    },
  };
}

/** A JSON API call: status, headers and parsed body. */
export async function call(
  base: string,
  key: string | null,
  method: string,
  path: string,
  body?: unknown,
  raw?: string,
): Promise<{ status: number; headers: Headers; body: any }> {
  const headers: Record<string, string> = {};
  if (key) headers['authorization'] = `Bearer ${key}`;
  if (body !== undefined || raw !== undefined) headers['content-type'] = 'application/json';
  const res = await fetch(base + path, {
    method,
    headers,
    body: raw ?? (body === undefined ? undefined : JSON.stringify(body)),
  });
  const text = await res.text();
  let parsed: unknown = text;
  try {
    parsed = JSON.parse(text);
  } catch {
    // not JSON (a PDF): keep the text
  }
  return { status: res.status, headers: res.headers, body: parsed };
}
