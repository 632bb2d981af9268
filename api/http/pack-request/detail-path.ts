/**
 * Paths of `details[].path` (spec Error envelope: "JSON path such as items[3].length"): field
 * names joined by dots, array indices in brackets, the root as the empty string. Names that are
 * not plain identifiers are written as quoted keys: `options["my field"]`.
 */

const IDENTIFIER = /^[A-Za-z_$][A-Za-z0-9_$]*$/;

/** Appends a field name to a path: `join('items[3]', 'length')` → `items[3].length`. */
export function joinField(path: string, name: string): string {
  if (!IDENTIFIER.test(name)) return `${path}[${JSON.stringify(name)}]`;
  return path === '' ? name : `${path}.${name}`;
}

/**
 * Converts an Ajv instancePath (JSON Pointer, RFC 6901: `/vehicles/0/blocked_areas/2/x`) into a
 * detail path (`vehicles[0].blocked_areas[2].x`). Numeric segments are array indices: in a
 * PackRequest only arrays are descended into by number (unknown keys are reported, not entered).
 */
export function pointerToPath(pointer: string): string {
  if (pointer === '') return '';
  let out = '';
  for (const raw of pointer.slice(1).split('/')) {
    const seg = raw.replace(/~1/g, '/').replace(/~0/g, '~');
    out = /^(0|[1-9][0-9]*)$/.test(seg) ? `${out}[${seg}]` : joinField(out, seg);
  }
  return out;
}

const SECTION_RANK: ReadonlyMap<string, number> = new Map([
  ['reference', 1],
  ['vehicles', 2],
  ['items', 3],
  ['groups', 4],
  ['options', 5],
]);

/**
 * Sort key putting details in document order of the request: root, reference, vehicles, items,
 * groups, options, then unknown top-level fields; within a list by index. Used with a stable sort,
 * so problems of one entry keep their order.
 */
export function documentOrder(path: string): [number, number] {
  const m = /^([A-Za-z_$][A-Za-z0-9_$]*)?(?:\[(\d+)\])?/.exec(path);
  const section = m?.[1] ?? '';
  const rank = path === '' ? 0 : (SECTION_RANK.get(section) ?? 6);
  const index = m?.[2] !== undefined ? Number(m[2]) : -1;
  return [rank, index];
}
