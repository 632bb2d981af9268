/** A script that solves an example in a child `node` process with options of its own. */
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

const ROOT = fileURLToPath(new URL('../..', import.meta.url));

/**
 * The text of a module script that solves examples/eur-pallets-13-6m-trailer.json with a
 * two-thread Solver (its threads warmed first) and prints `<status> <units placed>`, to run in a child `node` with options of
 * its own (a V8 flag, no loader). `modules` is the directory the service's modules load from: the
 * repository (`ext` 'ts', under tsx) or its `dist/` ('js', plain node). Write it to a file: under
 * `node -e` or `--input-type`, the solver's threads would inherit that option too.
 */
export function exampleSolveScript(modules: string, ext: 'js' | 'ts'): string {
  const check = join(modules, 'api', 'http', 'pack-request', `check.${ext}`);
  const solve = join(modules, 'solver', `solve.${ext}`);
  const example = join(ROOT, 'examples', 'eur-pallets-13-6m-trailer.json');
  return [
    "import { readFileSync } from 'node:fs';",
    `const { checkPackRequest, SCRIPT_CHECK_CONTEXT } = await import(${JSON.stringify(check)});`,
    `const { Solver } = await import(${JSON.stringify(solve)});`,
    `const body = JSON.parse(readFileSync(${JSON.stringify(example)}, 'utf8'));`,
    'const s = new Solver({ threads: 2 });',
    // Warm threads first, as the service does: a cold thread's start (about a second, more on a
    // busy machine) would otherwise come out of the example's search budget.
    'await s.warm();',
    'const out = await s.solve(checkPackRequest(body, SCRIPT_CHECK_CONTEXT).model);',
    'await s.close();',
    "console.log(out.status, out.status === 'solved' ? out.plan.vehicles.reduce((n, v) => n + v.items_placed, 0) : 0);",
  ].join('\n');
}
