/**
 * Stacks while a vehicle is loaded, step by step, for the safe stacking rule max_slenderness
 * (docs/solver.md, "Safe stacks"; the verifier checks the same rule on its own,
 * solver/verify/slenderness.ts). A stack is two or more loaded boxes joined by "rests on"
 * (loading-steps.ts restsOn); along x and along z apart, the part of it above what holds it (the
 * front wall at x = 0 or a side wall, up to the touching box's top; a loaded box outside the
 * stack whose side face touches it, up to the lower top) is at most `ratio` times the extent of
 * its base (its lowest boxes' bounding rectangle) along that axis. Lengths in cm.
 */
import { EPS } from './maximal-space.js';

/** A placed box, cm: min corner and size along x, y, z (loading-steps.ts Box has these and more). */
export interface StackBox {
  x: number;
  y: number;
  z: number;
  dx: number;
  dy: number;
  dz: number;
}

/** Key of a face position for finding touching faces (1e-5 cm, as restsOn keys heights). */
const faceKey = (v: number): number => Math.round(v * 1e5);

/** A box touching another one's side face, and the top of their common face, cm. */
interface Side {
  other: number;
  top: number;
}

/** What a stack is: its boxes, lowest base and highest top, and its base rectangle (cm). */
interface StackFigures {
  members: number[];
  base: number;
  top: number;
  x0: number;
  x1: number;
  z0: number;
  z1: number;
}

/** For each box, the boxes touching a side face across x (`[0]`) and across z (`[1]`). */
function sideFaces(boxes: readonly StackBox[]): [Side[][], Side[][]] {
  const out: [Side[][], Side[][]] = [boxes.map(() => []), boxes.map(() => [])];
  for (const axis of [0, 1] as const) {
    const start = (b: StackBox): number => (axis === 0 ? b.x : b.z);
    const end = (b: StackBox): number => (axis === 0 ? b.x + b.dx : b.z + b.dz);
    const byStart = new Map<number, number[]>();
    boxes.forEach((b, i) => {
      for (const k of [faceKey(start(b)) - 1, faceKey(start(b)), faceKey(start(b)) + 1]) {
        const list = byStart.get(k);
        if (list) list.push(i);
        else byStart.set(k, [i]);
      }
    });
    boxes.forEach((b, i) => {
      for (const j of byStart.get(faceKey(end(b))) ?? []) {
        const c = boxes[j]!;
        if (j === i || Math.abs(start(c) - end(b)) > EPS) continue;
        const across =
          axis === 0
            ? Math.min(b.z + b.dz, c.z + c.dz) - Math.max(b.z, c.z)
            : Math.min(b.x + b.dx, c.x + c.dx) - Math.max(b.x, c.x);
        const up = Math.min(b.y + b.dy, c.y + c.dy) - Math.max(b.y, c.y);
        if (across <= EPS || up <= EPS) continue;
        const top = Math.min(b.y + b.dy, c.y + c.dy);
        out[axis][i]!.push({ other: j, top });
        out[axis][j]!.push({ other: i, top });
      }
    });
  }
  return out;
}

/**
 * The stacks of one vehicle as its boxes are loaded one by one (`load`), and whether loading a
 * box next would leave its stack standing free and too slender (`unstable`). `below[i]`: the
 * boxes box i rests on (restsOn); `width`: the cargo space's width (side walls at z = 0 and
 * z = width); `ratio`: Options.max_slenderness (> 0).
 */
export class StackStability {
  private readonly parent: number[];
  private readonly stacks: StackFigures[];
  private readonly loaded: boolean[];
  private readonly sides: [Side[][], Side[][]];

  constructor(
    private readonly boxes: readonly StackBox[],
    private readonly below: readonly number[][],
    private readonly width: number,
    private readonly ratio: number,
  ) {
    this.parent = boxes.map((_, i) => i);
    this.stacks = boxes.map((b, i) => ({
      members: [i],
      base: b.y,
      top: b.y + b.dy,
      x0: b.x,
      x1: b.x + b.dx,
      z0: b.z,
      z1: b.z + b.dz,
    }));
    this.loaded = boxes.map(() => false);
    this.sides = sideFaces(boxes);
  }

  private find(i: number): number {
    const parent = this.parent;
    while (parent[i] !== i) {
      parent[i] = parent[parent[i]!]!;
      i = parent[i]!;
    }
    return i;
  }

  /** The stacks box `i` would join (their roots) and the figures of the stack it would make. */
  private joined(i: number): { roots: Set<number>; figures: Omit<StackFigures, 'members'>; size: number } {
    const roots = new Set<number>([i]);
    for (const j of this.below[i]!) roots.add(this.find(j));
    const figures = { ...this.stacks[i]! };
    let size = 0;
    for (const r of roots) {
      const s = this.stacks[r]!;
      size += s.members.length;
      if (r === i) continue;
      if (s.base < figures.base - EPS) Object.assign(figures, { base: s.base, x0: s.x0, x1: s.x1, z0: s.z0, z1: s.z1 });
      else if (Math.abs(s.base - figures.base) <= EPS) {
        figures.x0 = Math.min(figures.x0, s.x0);
        figures.x1 = Math.max(figures.x1, s.x1);
        figures.z0 = Math.min(figures.z0, s.z0);
        figures.z1 = Math.max(figures.z1, s.z1);
      }
      figures.top = Math.max(figures.top, s.top);
    }
    return { roots, figures, size };
  }

  /** True when loading box `i` now (after the boxes loaded so far) makes a stack that breaks the rule. */
  unstable(i: number): boolean {
    const { roots, figures, size } = this.joined(i);
    if (size < 2) return false;
    const height = figures.top - figures.base;
    for (const axis of [0, 1] as const) {
      const allowed = this.ratio * (axis === 0 ? figures.x1 - figures.x0 : figures.z1 - figures.z0);
      if (height <= allowed + 1e-6) continue;
      let held = figures.base;
      const visit = (m: number): void => {
        const b = this.boxes[m]!;
        const wall = axis === 0 ? b.x <= EPS : b.z <= EPS || b.z + b.dz >= this.width - EPS;
        if (wall) held = Math.max(held, b.y + b.dy);
        for (const s of this.sides[axis][m]!) {
          if (this.loaded[s.other] && !roots.has(this.find(s.other))) held = Math.max(held, s.top);
        }
      };
      for (const r of roots) for (const m of this.stacks[r]!.members) visit(m);
      if (figures.top - held > allowed + 1e-6) return true;
    }
    return false;
  }

  /** Loads box `i`: it joins the stacks of the boxes it rests on. */
  load(i: number): void {
    this.loaded[i] = true;
    for (const j of this.below[i]!) {
      let a = this.find(i),
        b = this.find(j);
      if (a === b) continue;
      if (this.stacks[a]!.members.length < this.stacks[b]!.members.length) [a, b] = [b, a];
      const s = this.stacks[a]!,
        t = this.stacks[b]!;
      this.parent[b] = a;
      for (const m of t.members) s.members.push(m);
      if (t.base < s.base - EPS) Object.assign(s, { base: t.base, x0: t.x0, x1: t.x1, z0: t.z0, z1: t.z1 });
      else if (Math.abs(t.base - s.base) <= EPS) {
        s.x0 = Math.min(s.x0, t.x0);
        s.x1 = Math.max(s.x1, t.x1);
        s.z0 = Math.min(s.z0, t.z0);
        s.z1 = Math.max(s.z1, t.z1);
      }
      s.top = Math.max(s.top, t.top);
      t.members = [];
    }
  }
}
