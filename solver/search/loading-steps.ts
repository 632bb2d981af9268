/**
 * Loading order within one vehicle: a topological order of the "rests on" relation (a unit
 * comes after every unit it stands on) and, with a second deck, of "the deck section over it"
 * (a unit on or above the deck comes after every unit under the deck in the same stretch of
 * length), preferring smaller x (front wall first), then lower y, then smaller z (Kahn's
 * algorithm with a priority queue).
 */
import { EPS } from './maximal-space.js';
import { StackStability } from './stack-stability.js';

/** A placed box, cm (min corner and size along x, y, z). */
export interface Box {
  x: number;
  y: number;
  z: number;
  dx: number;
  dy: number;
  dz: number;
  /** Loading rank (group rank with a group routing): lower ranks load first; default 0. */
  rank?: number;
  /** cm this box sinks into an identical box under it (nesting), and what makes boxes identical. */
  nest?: number;
  kind?: number;
}

function heightKey(y: number): number {
  return Math.round(y * 1e5);
}

/**
 * For each box, the indices of the boxes it rests on: boxes whose top is at its bottom y
 * (within 1e-5 cm) and whose footprint overlaps its footprint with positive area, and the
 * identical box it is nested into. Boxes on the floor or on the second deck at `deckHeight` cm rest
 * on nothing.
 */
export function restsOn(boxes: readonly Box[], deckHeight: number | null = null): number[][] {
  const byTop = new Map<number, number[]>();
  boxes.forEach((b, i) => {
    const k = heightKey(b.y + b.dy);
    const list = byTop.get(k);
    if (list) list.push(i);
    else byTop.set(k, [i]);
  });
  return boxes.map((b) => {
    // On the floor, or on the second deck (which carries it, whatever ends just under it).
    if (b.y <= EPS || (deckHeight !== null && Math.abs(b.y - deckHeight) <= EPS)) return [];
    const out: number[] = [];
    for (const j of byTop.get(heightKey(b.y)) ?? []) {
      const s = boxes[j]!;
      if (s.x < b.x + b.dx - EPS && b.x < s.x + s.dx - EPS && s.z < b.z + b.dz - EPS && b.z < s.z + s.dz - EPS)
        out.push(j);
    }
    // A nesting box rests on the identical box it sinks into.
    if (b.nest && b.nest > 0) {
      for (const j of byTop.get(heightKey(b.y + b.nest)) ?? []) {
        const s = boxes[j]!;
        if (
          s.kind === b.kind &&
          Math.abs(s.x - b.x) <= EPS &&
          Math.abs(s.z - b.z) <= EPS &&
          Math.abs(s.dx - b.dx) <= EPS &&
          Math.abs(s.dz - b.dz) <= EPS
        )
          out.push(j);
      }
    }
    return out;
  });
}

/**
 * With a second deck at `deckHeight` cm: for each box on or above the deck, the indices of the
 * boxes wholly under the deck whose length range [x, x + dx) overlaps its own with positive
 * length (a crew loads a double-deck vehicle section by section from the front
 * wall, the floor units of a section before the deck units over them, because the deck over a
 * section closes it). Empty lists without a deck. A box under the deck of a higher rank (a later
 * group with a group routing) is left out: the groups' order comes first.
 */
export function underDeck(boxes: readonly Box[], deckHeight: number | null): number[][] {
  const out: number[][] = boxes.map(() => []);
  if (deckHeight === null) return out;
  const under: number[] = [];
  boxes.forEach((b, i) => {
    if (b.y + b.dy <= deckHeight + EPS) under.push(i);
  });
  under.sort((i, j) => boxes[i]!.x - boxes[j]!.x);
  const starts = under.map((i) => boxes[i]!.x);
  boxes.forEach((d, i) => {
    if (d.y < deckHeight - EPS) return;
    const end = d.x + d.dx - EPS;
    // Boxes under the deck that start before this box ends; keep those that end after it starts.
    let hi = 0,
      top = starts.length;
    while (hi < top) {
      const mid = (hi + top) >> 1;
      if (starts[mid]! < end) hi = mid + 1;
      else top = mid;
    }
    for (let k = 0; k < hi; k++) {
      const j = under[k]!,
        f = boxes[j]!;
      if (f.x + f.dx > d.x + EPS && (f.rank ?? 0) <= (d.rank ?? 0)) out[i]!.push(j);
    }
  });
  return out;
}

/** Min-heap of box indices ordered by (rank, x, y, z, index). */
class BoxHeap {
  private readonly a: number[] = [];
  constructor(private readonly boxes: readonly Box[]) {}
  get size(): number {
    return this.a.length;
  }
  /** The least index without removing it; the heap must not be empty. */
  peek(): number {
    return this.a[0]!;
  }
  less(i: number, j: number): boolean {
    const p = this.boxes[i]!,
      q = this.boxes[j]!;
    if ((p.rank ?? 0) !== (q.rank ?? 0)) return (p.rank ?? 0) < (q.rank ?? 0);
    if (Math.abs(p.x - q.x) > EPS) return p.x < q.x;
    if (Math.abs(p.y - q.y) > EPS) return p.y < q.y;
    if (Math.abs(p.z - q.z) > EPS) return p.z < q.z;
    return i < j;
  }
  push(v: number): void {
    const a = this.a;
    a.push(v);
    let i = a.length - 1;
    while (i > 0) {
      const p = (i - 1) >> 1;
      if (!this.less(a[i]!, a[p]!)) break;
      [a[i], a[p]] = [a[p]!, a[i]!];
      i = p;
    }
  }
  pop(): number {
    const a = this.a;
    const top = a[0]!;
    const last = a.pop()!;
    if (a.length > 0) {
      a[0] = last;
      let i = 0;
      for (;;) {
        const l = 2 * i + 1,
          r = l + 1;
        let m = i;
        if (l < a.length && this.less(a[l]!, a[m]!)) m = l;
        if (r < a.length && this.less(a[r]!, a[m]!)) m = r;
        if (m === i) break;
        [a[i], a[m]] = [a[m]!, a[i]!];
        i = m;
      }
    }
    return top;
  }
}

/**
 * Loading steps: `steps[i]` is the 1-based step of box i. Every box gets a larger step than
 * all boxes it rests on and, with a second deck at `deckHeight` cm, a box on or above the deck
 * a larger step than the boxes under the deck in its stretch of length (underDeck). Among the
 * boxes that are free to load, the lowest rank and then the one nearest the front wall
 * (smallest x, then y, then z) goes first, except that a free box of the same kind as the box
 * just loaded, in the same rank and at the same x, is preferred: the crew finishes the block of
 * one item in a slice (a column of rugs, then the kettles beside it) instead of alternating
 * items layer by layer, which is what lets the loading instructions group the steps.
 * When no box rests on a box of a higher rank, all boxes of a rank load before any box
 * of a higher rank. O(n · (log n + k)) for k kinds.
 *
 * With `stable` (the safe stacking rule max_slenderness: the cargo space's width, cm, and the
 * ratio), a box whose loading would leave its stack standing free and too slender
 * (stack-stability.ts) waits while another free box of the same rank, among the next
 * STABLE_TRIES in the order above, can be loaded without; when none can, the first goes anyway
 * (plan-assembly.ts then takes such stacks down).
 */
export function loadingSteps(
  boxes: readonly Box[],
  deckHeight: number | null = null,
  stable?: { width: number; ratio: number },
): number[] {
  const below = restsOn(boxes, deckHeight);
  underDeck(boxes, deckHeight).forEach((l, i) => {
    if (l.length > 0) below[i] = below[i]!.concat(l);
  });
  const above: number[][] = boxes.map(() => []);
  const waiting = below.map((l) => l.length);
  below.forEach((l, i) => l.forEach((j) => above[j]!.push(i)));
  // One heap per kind of box: the least box overall is the least of the heaps' tops.
  const heaps = new Map<number | undefined, BoxHeap>();
  const heapOf = (i: number): BoxHeap => {
    const kind = boxes[i]!.kind;
    let h = heaps.get(kind);
    if (h === undefined) heaps.set(kind, (h = new BoxHeap(boxes)));
    return h;
  };
  waiting.forEach((w, i) => {
    if (w === 0) heapOf(i).push(i);
  });
  const steps = new Array<number>(boxes.length).fill(0);
  let step = 0;
  let last: BoxHeap | undefined;
  /** The heap of the next box in the order above, or undefined when none is free. */
  const next = (): BoxHeap | undefined => {
    let best: BoxHeap | undefined;
    for (const h of heaps.values()) {
      if (h.size > 0 && (best === undefined || h.less(h.peek(), best.peek()))) best = h;
    }
    if (best === undefined) return undefined;
    if (last !== undefined && last !== best && last.size > 0) {
      const p = boxes[last.peek()]!,
        q = boxes[best.peek()]!;
      if ((p.rank ?? 0) === (q.rank ?? 0) && Math.abs(p.x - q.x) <= EPS) best = last;
    }
    return best;
  };
  const stability =
    stable && stable.ratio > 0
      ? new StackStability(boxes, restsOn(boxes, deckHeight), stable.width, stable.ratio)
      : null;
  for (;;) {
    const best = next();
    if (best === undefined) break;
    let heap = best;
    let i = best.pop();
    if (stability?.unstable(i)) {
      // Later boxes of the same rank that can be loaded now without a slender free stack.
      // When none can, the first box goes; the boxes passed over go back either way.
      const passed: [number, BoxHeap][] = [];
      for (let k = 0; k < STABLE_TRIES; k++) {
        const h = next();
        if (h === undefined || (boxes[h.peek()]!.rank ?? 0) !== (boxes[i]!.rank ?? 0)) break;
        const j = h.pop();
        if (!stability.unstable(j)) {
          passed.push([i, heap]);
          [i, heap] = [j, h];
          break;
        }
        passed.push([j, h]);
      }
      for (const [j, h] of passed) h.push(j);
    }
    stability?.load(i);
    steps[i] = ++step;
    last = heap;
    for (const j of above[i]!) {
      if (--waiting[j]! === 0) heapOf(j).push(j);
    }
  }
  return steps;
}

/** Free boxes tried after one whose loading would leave a slender free stack (loadingSteps `stable`). */
export const STABLE_TRIES = 64;
