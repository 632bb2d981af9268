/**
 * Writes clients/typescript/src/generated/openapi.ts, the client's types, from the service's
 * OpenAPI 3.1 document (one source of truth). By default the document is built
 * in-process from the route modules (`buildOpenApi(ROUTE_MODULES)`, what GET /openapi.json
 * serves); `--from <url>` reads a served document instead. The generated file is committed;
 * test/clients/typescript-types.test.ts fails when it differs from what this script writes now.
 *
 *   node --import tsx clients/typescript/scripts/generate-types.ts [--from http://localhost:8080/openapi.json]
 *
 * Output: one `export type` per component schema (JSON Schema → TypeScript: $ref, enum, const,
 * type lists, oneOf/anyOf as unions, allOf as intersections, objects with required keys, arrays),
 * and `Operations` / `OPERATIONS`: per operationId its method, path, path and query parameters,
 * request body and success answers.
 */
import { writeFileSync } from 'node:fs';
import { fileURLToPath } from 'node:url';

/** The JSON Schema keywords this generator reads. */
interface Schema {
  $ref?: string;
  const?: unknown;
  enum?: unknown[];
  oneOf?: Schema[];
  anyOf?: Schema[];
  allOf?: Schema[];
  type?: string | string[];
  items?: Schema | boolean;
  properties?: Record<string, Schema>;
  required?: string[];
  additionalProperties?: Schema | boolean;
  title?: string;
  description?: string;
}

/** The parts of an OpenAPI 3.1 document this generator reads. */
interface OpenApiDocument {
  info?: { title?: string; version?: string };
  components: { schemas: Record<string, Schema> };
  paths: Record<string, Record<string, Operation>>;
}

interface Operation {
  operationId: string;
  summary: string;
  parameters?: Parameter[];
  requestBody?: { content?: Record<string, { schema?: Schema }> };
  responses: Record<string, { content?: Record<string, { schema?: Schema }> }>;
}

interface Parameter {
  name: string;
  in: string;
  required?: boolean;
  description?: string;
  schema?: Schema;
}

const OUT = fileURLToPath(new URL('../src/generated/openapi.ts', import.meta.url));
const IDENTIFIER = /^[A-Za-z_$][\w$]*$/;

/** Component names that would shadow a global of TypeScript, and what they are emitted as. */
const RENAMED: Readonly<Record<string, string>> = { Error: 'ErrorEnvelope' };
const typeName = (name: string): string => RENAMED[name] ?? name;

const key = (name: string): string => (IDENTIFIER.test(name) ? name : JSON.stringify(name));

/** A JSDoc block of `text` at `indent`, or '' without text. */
function doc(text: unknown, indent: string): string {
  if (typeof text !== 'string' || text.trim() === '') return '';
  const lines = text.replaceAll('*/', '*\\/').split('\n');
  if (lines.length === 1) return `${indent}/** ${lines[0]} */\n`;
  return `${indent}/**\n${lines.map((l) => `${indent} * ${l}`.trimEnd()).join('\n')}\n${indent} */\n`;
}

/** The TypeScript type of a JSON Schema; `indent` is the indentation of the line it is on. */
export function typeOf(schema: Schema | boolean | undefined, indent = ''): string {
  if (schema === undefined || schema === true) return 'unknown';
  if (schema === false) return 'never';
  if (typeof schema.$ref === 'string') {
    const name = schema.$ref.replace(/^#\/components\/schemas\//, '');
    if (name === schema.$ref) throw new Error(`unsupported $ref ${schema.$ref}`);
    return typeName(name);
  }
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v: unknown) => JSON.stringify(v)).join(' | ');
  if (Array.isArray(schema.oneOf) || Array.isArray(schema.anyOf)) {
    return (schema.oneOf ?? schema.anyOf ?? []).map((s) => wrap(typeOf(s, indent))).join(' | ');
  }
  if (Array.isArray(schema.allOf)) return schema.allOf.map((s) => wrap(typeOf(s, indent))).join(' & ');
  const types: string[] = Array.isArray(schema.type) ? schema.type : schema.type ? [schema.type] : [];
  if (types.length === 0) return schema.properties ? objectType(schema, indent) : 'unknown';
  return types.map((t) => wrap(single(t, schema, indent))).join(' | ');
}

const wrap = (t: string): string => (/^[\w".$-]+(\[\])?$/.test(t) || t.startsWith('{') ? t : `(${t})`);

function single(type: string, schema: Schema, indent: string): string {
  switch (type) {
    case 'string':
      return 'string';
    case 'integer':
    case 'number':
      return 'number';
    case 'boolean':
      return 'boolean';
    case 'null':
      return 'null';
    case 'array':
      return `${wrap(typeOf(schema.items, indent))}[]`;
    case 'object':
      return objectType(schema, indent);
    default:
      throw new Error(`unsupported JSON Schema type ${type}`);
  }
}

function objectType(schema: Schema, indent: string): string {
  const required = new Set<string>(schema.required ?? []);
  const inner = `${indent}  `;
  const lines: string[] = [];
  for (const [name, prop] of Object.entries(schema.properties ?? {})) {
    lines.push(
      `${doc(prop.description, inner)}${inner}${key(name)}${required.has(name) ? '' : '?'}: ${typeOf(prop, inner)};`,
    );
  }
  const extra = schema.additionalProperties;
  if (
    extra !== undefined &&
    extra !== false &&
    (extra === true || Object.keys(extra).length > 0 || !schema.properties)
  ) {
    lines.push(`${inner}[key: string]: ${extra === true ? 'unknown' : typeOf(extra, inner)};`);
  } else if (extra === undefined && !schema.properties) {
    lines.push(`${inner}[key: string]: unknown;`);
  }
  return lines.length === 0 ? 'Record<string, never>' : `{\n${lines.join('\n')}\n${indent}}`;
}

/** The parameters of `op` in `where` (path or query) as an object type, or `never` when none. */
function parameters(op: Operation, where: 'path' | 'query', indent: string): string {
  const list = (op.parameters ?? []).filter((p) => p.in === where);
  if (list.length === 0) return 'never';
  return `{\n${list
    .map(
      (p) =>
        `${doc(p.description, `${indent}  `)}${indent}  ${key(p.name)}${p.required || where === 'path' ? '' : '?'}: ${typeOf(p.schema, `${indent}  `)};`,
    )
    .join('\n')}\n${indent}}`;
}

/** The source text of the generated module for `document` (an OpenAPI 3.1 document). */
export function renderTypes(document: OpenApiDocument): string {
  const out: string[] = [
    '/**',
    ` * Types of the ${document.info?.title ?? 'service'} ${document.info?.version ?? ''}, generated from its OpenAPI document by`,
    ' * clients/typescript/scripts/generate-types.ts. Do not edit: run `npm run generate` in clients/typescript.',
    ' * Lengths are cm, weights kg, amounts credits (1 credit = 1 USD), times ms unless a field says otherwise.',
    ' */',
    '/* eslint-disable */',
    '',
  ];
  for (const [name, schema] of Object.entries(document.components.schemas)) {
    out.push(
      `${doc(schema.description ?? schema.title, '')}export type ${typeName(name)} = ${typeOf(schema, '')};`,
      '',
    );
  }
  const ops: string[] = [];
  const table: string[] = [];
  for (const [path, item] of Object.entries(document.paths)) {
    for (const [method, op] of Object.entries(item)) {
      const body = op.requestBody?.content?.['application/json']?.schema;
      const responses: string[] = [];
      for (const [status, response] of Object.entries(op.responses)) {
        if (Number(status) >= 300) continue;
        const [type, media] = Object.entries(response.content ?? {})[0] ?? [];
        const t = !media ? 'null' : type === 'application/json' ? typeOf(media.schema, '      ') : 'string';
        responses.push(`      ${status}: ${t};`);
      }
      ops.push(
        `${doc(`${method.toUpperCase()} ${path}: ${op.summary}`, '  ')}  ${op.operationId}: {`,
        `    method: ${JSON.stringify(method.toUpperCase())};`,
        `    path: ${JSON.stringify(path)};`,
        `    pathParams: ${parameters(op, 'path', '    ')};`,
        `    query: ${parameters(op, 'query', '    ')};`,
        `    body: ${body ? typeOf(body, '    ') : 'never'};`,
        `    responses: {\n${responses.join('\n')}\n    };`,
        '  };',
      );
      table.push(
        `  ${op.operationId}: { method: ${JSON.stringify(method.toUpperCase())}, path: ${JSON.stringify(path)} },`,
      );
    }
  }
  out.push(
    '/** Every operation of the document by operationId: method, path, parameters, body and success answers by status. */',
  );
  out.push(`export interface Operations {\n${ops.join('\n')}\n}`, '');
  out.push('/** Method and path of every operation, by operationId. */');
  out.push(
    `export const OPERATIONS = {\n${table.join('\n')}\n} as const satisfies Record<keyof Operations, { method: string; path: string }>;`,
    '',
  );
  return out.join('\n');
}

/** The document built in-process from the service's route modules (what GET /openapi.json serves). */
export async function serviceDocument(): Promise<OpenApiDocument> {
  const { buildOpenApi } = await import('../../../api/http/openapi/document.js');
  const { ROUTE_MODULES } = await import('../../../api/http/routes/index.js');
  return buildOpenApi(ROUTE_MODULES) as unknown as OpenApiDocument;
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const from = process.argv.indexOf('--from');
  const document =
    from > 0 ? ((await (await fetch(process.argv[from + 1]!)).json()) as OpenApiDocument) : await serviceDocument();
  writeFileSync(OUT, renderTypes(document));
  process.stdout.write(`wrote ${OUT}\n`);
}
