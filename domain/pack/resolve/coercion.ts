/**
 * Reading request values that may not have passed the JSON Schema: api/http/pack-request/check.ts
 * resolves a body anyway to list every problem in one answer, so resolution reads values only
 * through these guards. An ill-typed value counts as absent for the rules that depend on it; the
 * schema reports it. Lengths in cm, weights in kg.
 */

/** A JSON object as sent: field name → unchecked value. */
export type Fields = Record<string, unknown>;

/** `#rrggbb` (spec Item.color, Group.color). */
const COLOR = /^#[0-9a-fA-F]{6}$/;

/** True for a JSON object (not null, not an array). */
export const isFields = (v: unknown): v is Fields => typeof v === 'object' && v !== null && !Array.isArray(v);
/** A non-empty string, else undefined. */
export const text = (v: unknown): string | undefined => (typeof v === 'string' && v.length > 0 ? v : undefined);
/** True for a finite number. */
export const finite = (v: unknown): v is number => typeof v === 'number' && Number.isFinite(v);
/** A finite number > 0, else undefined. */
export const positive = (v: unknown): number | undefined => (finite(v) && v > 0 ? v : undefined);
/** A finite number ≥ 0, else undefined. */
export const nonNegative = (v: unknown): number | undefined => (finite(v) && v >= 0 ? v : undefined);
/** An integer in [min, max], else undefined. */
export const wholeIn = (v: unknown, min: number, max: number): number | undefined =>
  Number.isInteger(v) && (v as number) >= min && (v as number) <= max ? (v as number) : undefined;
/** One of `list`, else undefined. */
export const oneOf = <T extends string>(list: readonly T[], v: unknown): T | undefined =>
  (list as readonly unknown[]).includes(v) ? (v as T) : undefined;
/** The entries of an array; anything else reads as no entries. */
export const listOf = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
/** A `#rrggbb` colour, else undefined. */
export const colour = (v: unknown): string | undefined => (typeof v === 'string' && COLOR.test(v) ? v : undefined);

/** Copies the fields `keys` of `saved` and then the ones the request sends (request wins). */
export function merge(keys: readonly string[], saved: object | undefined, sent: Fields): Fields {
  const out: Fields = {};
  for (const k of keys) {
    const v = sent[k] !== undefined ? sent[k] : saved ? (saved as Fields)[k] : undefined;
    if (v !== undefined) out[k] = v;
  }
  return out;
}
