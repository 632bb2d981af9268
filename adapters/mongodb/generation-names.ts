/**
 * Names of the read models' collections by generation (MongoDB read store): generation n > 0
 * prefixes every collection with `rm<n>_` (`rm3_jobs`, `rm3_checkpoints`); generation 0 is the
 * unprefixed set written before read models were versioned.
 */

const PREFIXED = /^rm([1-9][0-9]*)_/;

/** The prefix of generation `generation` (a non-negative integer; RangeError otherwise). */
export function generationPrefix(generation: number): string {
  if (!Number.isSafeInteger(generation) || generation < 0)
    throw new RangeError(`not a read-model generation: ${generation}`);
  return generation === 0 ? '' : `rm${generation}_`;
}

/** The generation a prefixed collection name belongs to; undefined for an unprefixed name. */
export function generationOfCollection(name: string): number | undefined {
  const m = PREFIXED.exec(name);
  return m ? Number(m[1]) : undefined;
}
