/**
 * The `packing` command over PackingClient: pack, estimate, jobs, vehicles,
 * templates, projects, balance, usage; `--help` on every command; exit codes in exit-codes.ts;
 * key and address in config.ts. Answers go to stdout (JSON with --json), progress and errors to
 * stderr.
 */
import { readFileSync, writeFileSync } from 'node:fs';
import { Command, CommanderError, Option } from 'commander';
import { PackingClient } from '../client.js';
import { PackingApiError } from '../errors.js';
import type { Job, PackRequest, ProjectInput, TemplateInput, VehicleInput } from '../generated/openapi.js';
import { loadConfig } from './config.js';
import { CliUsageError, EXIT, exitCodeOf } from './exit-codes.js';
import { progressReporter } from './progress.js';

/** Where the command reads its environment and writes. */
export interface CliIo {
  env: NodeJS.ProcessEnv;
  stdout: NodeJS.WriteStream;
  stderr: NodeJS.WriteStream;
}

const EXIT_HELP = `
Environment:
  PACKING_API_KEY   API key (pk_live_…); else "api_key" of the config file
  PACKING_API_URL   service address (default http://localhost:8080); else "api_url" of the config file
  PACKING_CONFIG    config file (default ~/.config/packing/config.json, mode 0600 required)

Exit codes:
  0 ok, 1 unexpected, 2 usage or input file, 3 validation (400/422), 4 key or permission (401/403),
  5 not found (404/410), 6 conflict (409), 7 insufficient credits (402), 8 rate limited (429),
  9 service unavailable (5xx) or no connection, 10 pack --wait: job failed or canceled`;

/** A JSON file (or `-` for stdin) as an object; CliUsageError when unreadable or not JSON. */
function readJson(file: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(file === '-' ? 0 : file, 'utf8');
  } catch (error) {
    throw new CliUsageError(`cannot read ${file}: ${(error as Error).message}`);
  }
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch (error) {
    throw new CliUsageError(`${file} is not valid JSON: ${(error as Error).message}`);
  }
}

const itemUnits = (request: Record<string, unknown>): number =>
  Array.isArray(request['items'])
    ? (request['items'] as ({ quantity?: number } | null)[]).reduce((n, item) => n + (item?.quantity ?? 1), 0)
    : 0;

/** The exit code a command sets without failing (e.g. a job that ended failed). */
export interface CliOutcome {
  exitCode: number;
}

/**
 * The `packing` program for `io`; parse with `parseAsync(argv)`; commands that end without an
 * error but not well set `outcome.exitCode`; run() turns errors into exit codes.
 */
export function buildProgram(io: CliIo, outcome: CliOutcome = { exitCode: EXIT.ok }): Command {
  let client: PackingClient | undefined;
  const api = (): PackingClient => {
    if (client) return client;
    const config = loadConfig(io.env);
    if (!config.apiKey)
      throw new CliUsageError(
        `no API key: set PACKING_API_KEY or "api_key" in ${config.configFile} (mode 0600)`,
        EXIT.auth,
      );
    client = new PackingClient({
      baseUrl: config.baseUrl,
      apiKey: config.apiKey,
      userAgent: 'packing-cli',
      onRetry: (e) =>
        io.stderr.write(
          `retrying ${e.method} ${e.path} after ${e.status ?? 'no answer'} in ${(e.delayMs / 1000).toFixed(1)} s\n`,
        ),
    });
    return client;
  };
  const print = (value: unknown): void => {
    io.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
  };

  const program = new Command('packing')
    .description('Command-line client of the packing service: vehicles and items in, verified 3D load plans out.')
    .configureOutput({ writeOut: (s) => io.stdout.write(s), writeErr: (s) => io.stderr.write(s) })
    .addHelpText('after', EXIT_HELP)
    .showHelpAfterError()
    .exitOverride();

  program
    .command('pack')
    .description('Create a packing job from a request file (POST /v1/pack); with --wait, follow it to the end')
    .argument('<request.json>', 'the PackRequest (vehicles, items, options); "-" reads stdin')
    .option('--wait', 'wait until the job ends, showing progress on stderr')
    .option('--pdf <out.pdf>', 'write the plan PDF there (implies --wait)')
    .option('--json', 'print the job as JSON instead of a summary')
    .option('--idempotency-key <key>', 'retry key (default: a new one, the same on every retry)')
    .action(async (file: string, opts: { wait?: boolean; pdf?: string; json?: boolean; idempotencyKey?: string }) => {
      const request = readJson(file);
      const wait = opts.wait === true || opts.pdf !== undefined;
      const progress = wait && !opts.json ? progressReporter(io.stderr, itemUnits(request)) : null;
      const job = await api().pack(request as unknown as PackRequest, {
        wait,
        pollSeconds: 1,
        ...(opts.idempotencyKey ? { idempotencyKey: opts.idempotencyKey } : {}),
        ...(progress ? { onProgress: (j: Job) => progress.update(j) } : {}),
      });
      progress?.end();
      if (opts.pdf !== undefined && job.status === 'succeeded') {
        writeFileSync(opts.pdf, await api().downloadPdf(job));
        if (!opts.json) io.stderr.write(`wrote ${opts.pdf}\n`);
      }
      if (opts.json) print(job);
      else io.stdout.write(`${jobSummary(job)}\n`);
      if (wait && job.status !== 'succeeded') outcome.exitCode = EXIT.jobNotSucceeded;
    });

  program
    .command('estimate')
    .description('Validate and price a request file for free (POST /v1/estimate)')
    .argument('<request.json>', 'the PackRequest; "-" reads stdin')
    .action(async (file: string) => {
      const estimate = await api().estimatePackJob(readJson(file) as unknown as PackRequest);
      print(estimate);
      if (!estimate.valid) outcome.exitCode = EXIT.validation;
    });

  const jobs = program.command('jobs').description('List, read, cancel jobs and read their results');
  jobs
    .command('list')
    .description('List jobs, newest first (GET /v1/jobs)')
    .option('--status <statuses>', 'queued, running, succeeded, failed, canceled (comma-separated)')
    .option('--reference <reference>', 'exact reference')
    .option('--project <prj_id>', 'jobs of this project')
    .option('-q, --query <text>', 'text in the reference or id')
    .addOption(new Option('--limit <n>', 'records per page (1-100)').argParser(positive))
    .option('--all', 'every page, not only the first')
    .option('--json', 'JSON instead of one line per job')
    .action(
      async (opts: {
        status?: string;
        reference?: string;
        project?: string;
        query?: string;
        limit?: number;
        all?: boolean;
        json?: boolean;
      }) => {
        const query = {
          ...(opts.status ? { status: opts.status } : {}),
          ...(opts.reference ? { reference: opts.reference } : {}),
          ...(opts.project ? { project_id: opts.project } : {}),
          ...(opts.query ? { q: opts.query } : {}),
          ...(opts.limit ? { limit: opts.limit } : {}),
        };
        const list = opts.all ? await collect(api().iterateJobs(query)) : (await api().listJobs(query)).data;
        if (opts.json) print(list);
        else for (const job of list) io.stdout.write(`${jobSummary(job)}\n`);
      },
    );
  jobs
    .command('get')
    .description('Show a job (GET /v1/jobs/{id})')
    .argument('<job_id>')
    .option('--wait <seconds>', 'wait up to this many seconds (≤ 60) for the job to end', positive)
    .action(async (id: string, opts: { wait?: number }) =>
      print(await api().getJob(id, opts.wait ? { wait: opts.wait } : {})),
    );
  jobs
    .command('cancel')
    .description('Cancel a queued or running job (DELETE /v1/jobs/{id})')
    .argument('<job_id>')
    .action(async (id: string) => print(await api().cancelJob(id)));
  jobs
    .command('result')
    .description('Show the load plan of a succeeded job (GET /v1/jobs/{id}/result); --pdf writes its PDF')
    .argument('<job_id>')
    .option('--pdf <out.pdf>', 'write the plan PDF there instead of printing the result')
    .action(async (id: string, opts: { pdf?: string }) => {
      const result = await api().getJobResult(id);
      if (opts.pdf === undefined) return print(result);
      writeFileSync(opts.pdf, await api().getPlanPdf(result.pdf_url));
      io.stderr.write(`wrote ${opts.pdf}\n`);
    });

  savedRecords(program, 'vehicles', 'vehicle', api, print, io);
  savedRecords(program, 'templates', 'template (saved cargo item)', api, print, io);
  savedRecords(program, 'projects', 'project', api, print, io);

  program
    .command('balance')
    .description("Show the organization's credits (GET /v1/balance)")
    .action(async () => print(await api().getBalance()));
  program
    .command('usage')
    .description('Show jobs, compute and credits used (GET /v1/usage)')
    .option('--from <YYYY-MM-DD>', 'first day (UTC)')
    .option('--to <YYYY-MM-DD>', 'last day, inclusive (UTC)')
    .option('--daily', 'list every day of the range')
    .action(async (opts: { from?: string; to?: string; daily?: boolean }) =>
      print(
        await api().getUsage({
          ...(opts.from ? { from: opts.from } : {}),
          ...(opts.to ? { to: opts.to } : {}),
          ...(opts.daily ? { group_by: 'day' as const } : {}),
        }),
      ),
    );

  return program;
}

/** `list|get|create|delete` of one saved-record resource (vehicles, templates, projects). */
function savedRecords(
  program: Command,
  resource: 'vehicles' | 'templates' | 'projects',
  noun: string,
  api: () => PackingClient,
  print: (v: unknown) => void,
  io: CliIo,
): void {
  const cmd = program.command(resource).description(`List, show, create and delete ${resource} (/v1/${resource})`);
  type Named = { id: string; name?: string; label?: string };
  const calls: {
    list(c: PackingClient): AsyncIterable<Named>;
    first(c: PackingClient): Promise<{ data: Named[] }>;
    get(c: PackingClient, id: string): Promise<unknown>;
    create(c: PackingClient, body: unknown): Promise<unknown>;
    remove(c: PackingClient, id: string): Promise<unknown>;
  } = {
    vehicles: {
      list: (c: PackingClient) => c.iterateVehicles(),
      first: (c: PackingClient) => c.listVehicles(),
      get: (c: PackingClient, id: string) => c.getVehicle(id),
      create: (c: PackingClient, body: unknown) => c.createVehicle(body as VehicleInput),
      remove: (c: PackingClient, id: string) => c.deleteVehicle(id),
    },
    templates: {
      list: (c: PackingClient) => c.iterateTemplates(),
      first: (c: PackingClient) => c.listTemplates(),
      get: (c: PackingClient, id: string) => c.getTemplate(id),
      create: (c: PackingClient, body: unknown) => c.createTemplate(body as TemplateInput),
      remove: (c: PackingClient, id: string) => c.deleteTemplate(id),
    },
    projects: {
      list: (c: PackingClient) => c.iterateProjects(),
      first: (c: PackingClient) => c.listProjects(),
      get: (c: PackingClient, id: string) => c.getProject(id),
      create: (c: PackingClient, body: unknown) => c.createProject(body as ProjectInput),
      remove: (c: PackingClient, id: string) => c.deleteProject(id),
    },
  }[resource];
  cmd
    .command('list')
    .description(`List ${resource}, newest first (first page; --all for every page)`)
    .option('--all', 'every page')
    .option('--json', 'JSON instead of one line per record')
    .action(async (opts: { all?: boolean; json?: boolean }) => {
      const list: Named[] = opts.all ? await collect(calls.list(api())) : (await calls.first(api())).data;
      if (opts.json) print(list);
      else for (const r of list) io.stdout.write(`${r.id}\t${r.name ?? r.label ?? ''}\n`);
    });
  cmd
    .command('get')
    .description(`Show a ${noun}`)
    .argument('<id>')
    .action(async (id: string) => print(await calls.get(api(), id)));
  cmd
    .command('create')
    .description(`Create a ${noun} from a JSON file`)
    .argument('<file.json>', 'the record; "-" reads stdin')
    .action(async (file: string) => print(await calls.create(api(), readJson(file))));
  cmd
    .command('delete')
    .description(`Delete a ${noun}`)
    .argument('<id>')
    .action(async (id: string) => print(await calls.remove(api(), id)));
}

function positive(value: string): number {
  const n = Number(value);
  if (!Number.isInteger(n) || n < 1)
    throw new CliUsageError(`expected a positive integer, got ${JSON.stringify(value)}`);
  return n;
}

async function collect<T>(records: AsyncIterable<T>): Promise<T[]> {
  const out: T[] = [];
  for await (const r of records) out.push(r);
  return out;
}

/** One line about a job: id, status, reference, placed units, vehicles, credits. */
function jobSummary(job: Job): string {
  const s = job.summary;
  const ended =
    job.status === 'succeeded'
      ? ` ${s.items_placed}/${s.items_requested} placed in ${s.vehicles_used} vehicle${s.vehicles_used === 1 ? '' : 's'}, ${job.cost.credits} credits`
      : '';
  const error = job.error ? ` (${job.error.code}: ${job.error.message})` : '';
  return `${job.id}\t${job.status}${ended}${error}${job.reference ? `\t${job.reference}` : ''}`;
}

/**
 * Runs `packing` with `argv` (without node and script) and resolves to the exit code; writes
 * the error (code, message, details, request id) to stderr.
 */
export async function run(argv: string[], io: CliIo): Promise<number> {
  const outcome: CliOutcome = { exitCode: EXIT.ok };
  try {
    await buildProgram(io, outcome).parseAsync(argv, { from: 'user' });
    return outcome.exitCode;
  } catch (error) {
    if (error instanceof CommanderError) {
      // --help and --version end here with exit code 0
      return error.exitCode === 0 ? EXIT.ok : EXIT.usage;
    }
    if (error instanceof PackingApiError) {
      io.stderr.write(`error ${error.status} ${error.message}\n`);
      for (const d of error.details) io.stderr.write(`  ${d.path || '(body)'}: ${d.code}: ${d.message}\n`);
    } else io.stderr.write(`error: ${(error as Error).message ?? String(error)}\n`);
    return exitCodeOf(error);
  }
}
