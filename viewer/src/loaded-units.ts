/**
 * The units of one vehicle as GPU objects, cheap for thousands of units (a 2,000-unit
 * plan loads and orbits smoothly): one InstancedMesh per item (boxes, or cylinders for
 * `cylinder` and `drum` items, their axis along the placed side that is the item's height) and
 * all outlines in one LineSegments (box edges, the end circles of round units: unit-edges.ts).
 * Instances and outlines are kept in loading-step order, so "show steps 1..s" is a count per
 * mesh and a draw range on the outlines, nothing rebuilt. A picked unit glows in its own shape.
 * For the edit mode (edit/edit-mode.ts): a dragged unit drawn where the pointer puts it, red marks
 * over the units a check names, the glow's colour, and the surface a dragged unit would rest on.
 */
import {
  BoxGeometry,
  BufferGeometry,
  CylinderGeometry,
  EdgesGeometry,
  Float32BufferAttribute,
  Group,
  InstancedMesh,
  LineBasicMaterial,
  LineSegments,
  Matrix4,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  Plane,
  Quaternion,
  Vector3,
  type Raycaster,
} from 'three';
import type { ViewerItem, ViewerVehicle } from '../../api/http/plan-viewer/viewer-plan.js';
import type { Placement } from '../../domain/pack/plan.js';
import type { SolidBox } from './edit/snapping.js';
import { ROUND_SHAPES, roundAxis, vertexOffsets, writeUnitEdges } from './unit-edges.js';

interface Part {
  itemId: string;
  mesh: InstancedMesh;
  /** This item's units in the order of their instances (loading step, then plan order). */
  units: Placement[];
}

const BOX = new BoxGeometry(1, 1, 1);
const CYLINDER = new CylinderGeometry(0.5, 0.5, 1, 32);

const byStep = (a: Placement, b: Placement): number => a.step - b.step;

/** The floor plane, y = 0. */
const FLOOR = new Plane(new Vector3(0, 1, 0), 0);

/** Colours of the picked unit's glow. */
const GLOW = { picked: '#ffd400', invalid: '#d62728', valid: '#2ca02c' } as const;

/** Units of `sorted` (ascending steps) with step ≤ `step`. */
function countUpTo(sorted: readonly Placement[], step: number): number {
  let lo = 0,
    hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.step <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True for items drawn as cylinders. */
const round = (item: ViewerItem | undefined): boolean => item !== undefined && ROUND_SHAPES.has(item.shape);

/** The instance matrix of `p`: a unit box or cylinder scaled and moved onto the placement. */
function unitMatrix(p: Placement, cylinder: boolean, into: Matrix4): Matrix4 {
  const centre = new Vector3(p.x + p.length / 2, p.y + p.height / 2, p.z + p.width / 2);
  if (!cylinder) return into.compose(centre, new Quaternion(), new Vector3(p.length, p.height, p.width));
  const axis = roundAxis(p);
  const q = new Quaternion();
  let scale: Vector3;
  if (axis === 0) {
    q.setFromAxisAngle(new Vector3(0, 0, 1), -Math.PI / 2);
    scale = new Vector3(p.height, p.length, p.width);
  } else if (axis === 2) {
    q.setFromAxisAngle(new Vector3(1, 0, 0), Math.PI / 2);
    scale = new Vector3(p.length, p.width, p.height);
  } else scale = new Vector3(p.length, p.height, p.width);
  return into.compose(centre, q, scale);
}

/** The units of one vehicle: meshes, edges, step filter, colours and picking. */
export class LoadedUnits {
  readonly object = new Group();
  /** Every unit of the vehicle in loading order. */
  readonly units: Placement[];
  /** Highest step of the vehicle (0 when empty). */
  readonly lastStep: number;
  private readonly parts: Part[] = [];
  private readonly edges: LineSegments;
  /** Where each unit's outline starts in the edge buffer (vertices), the total last. */
  private readonly edgeStart: Uint32Array;
  private readonly highlight = new Group();
  private readonly glowShapes: { box: Group; cylinder: Group };
  private readonly glowMaterial: MeshBasicMaterial;
  private readonly isRound: (p: Placement) => boolean;
  /** Edit mode: translucent boxes over the units a check names (red), drawn over everything. */
  private readonly marks = new Group();
  private readonly markMaterial = new MeshBasicMaterial({
    color: '#d62728',
    transparent: true,
    opacity: 0.45,
    depthTest: false,
    depthWrite: false,
  });
  private selected: Placement | null = null;

  constructor(vehicle: ViewerVehicle, items: ReadonlyMap<string, ViewerItem>) {
    this.units = [...vehicle.placements].sort(byStep);
    this.lastStep = this.units.reduce((m, p) => Math.max(m, p.step), 0);
    this.isRound = (p) => round(items.get(p.item_id));
    const perItem = new Map<string, Placement[]>();
    for (const p of this.units) {
      const list = perItem.get(p.item_id);
      if (list) list.push(p);
      else perItem.set(p.item_id, [p]);
    }
    const m = new Matrix4();
    for (const [itemId, units] of perItem) {
      const cylinder = round(items.get(itemId));
      const material = new MeshLambertMaterial({
        color: '#888888',
        polygonOffset: true,
        polygonOffsetFactor: 1,
        polygonOffsetUnits: 1,
      });
      const mesh = new InstancedMesh(cylinder ? CYLINDER : BOX, material, units.length);
      units.forEach((p, i) => mesh.setMatrixAt(i, unitMatrix(p, cylinder, m)));
      mesh.instanceMatrix.needsUpdate = true;
      mesh.computeBoundingSphere();
      mesh.computeBoundingBox();
      mesh.name = `item:${itemId}`;
      this.parts.push({ itemId, mesh, units });
      this.object.add(mesh);
    }

    // Outlines in step order: box edges, the end circles of round units.
    this.edgeStart = vertexOffsets(this.units, this.isRound);
    const positions = new Float32Array(this.edgeStart[this.units.length]! * 3);
    this.units.forEach((p, u) => writeUnitEdges(p, this.isRound(p), positions, this.edgeStart[u]!));
    const edgeGeometry = new BufferGeometry().setAttribute('position', new Float32BufferAttribute(positions, 3));
    this.edges = new LineSegments(
      edgeGeometry,
      new LineBasicMaterial({ color: '#1f2933', transparent: true, opacity: 0.55 }),
    );
    this.edges.name = 'unit-edges';
    this.object.add(this.edges);

    // The picked unit: a translucent yellow box or cylinder with a dark outline (a cylinder's:
    // its end circles), drawn over everything so it shows through the units in front of it.
    const glowMaterial = (this.glowMaterial = new MeshBasicMaterial({
      color: GLOW.picked,
      transparent: true,
      opacity: 0.55,
      depthTest: false,
      depthWrite: false,
    }));
    const outlineMaterial = new LineBasicMaterial({ color: '#111111', depthTest: false });
    const glowShape = (geometry: BoxGeometry | CylinderGeometry): Group => {
      const glow = new Mesh(geometry, glowMaterial);
      const outline = new LineSegments(new EdgesGeometry(geometry, 20), outlineMaterial);
      glow.renderOrder = 30;
      outline.renderOrder = 31;
      return new Group().add(glow, outline);
    };
    this.glowShapes = { box: glowShape(BOX), cylinder: glowShape(CYLINDER) };
    this.highlight.add(this.glowShapes.box, this.glowShapes.cylinder);
    this.highlight.matrixAutoUpdate = false;
    this.highlight.visible = false;
    this.object.add(this.highlight);
    this.marks.renderOrder = 29;
    this.object.add(this.marks);
  }

  /** Shows the units of steps 1..`step` only; returns how many units are drawn. */
  showUpTo(step: number): number {
    let drawn = 0;
    for (const part of this.parts) {
      part.mesh.count = countUpTo(part.units, step);
      drawn += part.mesh.count;
    }
    this.edges.geometry.setDrawRange(0, this.edgeStart[countUpTo(this.units, step)]!);
    return drawn;
  }

  /** Units drawn now (the sum of the meshes' instance counts). */
  drawnUnits(): number {
    return this.parts.reduce((n, part) => n + part.mesh.count, 0);
  }

  /** Colours every item's mesh with `colourOf(itemId)` (`#rrggbb`). */
  colour(colourOf: (itemId: string) => string): void {
    for (const part of this.parts) (part.mesh.material as MeshLambertMaterial).color.set(colourOf(part.itemId));
  }

  /** The drawn unit nearest along `raycaster`'s ray, or null. */
  pick(raycaster: Raycaster): Placement | null {
    const hits = raycaster.intersectObjects(
      this.parts.map((p) => p.mesh),
      false,
    );
    for (const hit of hits) {
      const part = this.parts.find((p) => p.mesh === hit.object);
      if (part && hit.instanceId !== undefined && hit.instanceId < part.mesh.count)
        return part.units[hit.instanceId] ?? null;
    }
    return null;
  }

  /** Outlines `p` (drawn over everything), or hides the outline for null. */
  select(p: Placement | null): void {
    this.selected = p;
    this.highlight.visible = p !== null;
    if (!p) return;
    const cylinder = this.isRound(p);
    this.glowShapes.box.visible = !cylinder;
    this.glowShapes.cylinder.visible = cylinder;
    const pad = 1;
    const padded = {
      ...p,
      x: p.x - pad,
      y: p.y - pad,
      z: p.z - pad,
      length: p.length + 2 * pad,
      height: p.height + 2 * pad,
      width: p.width + 2 * pad,
    };
    unitMatrix(padded, cylinder, this.highlight.matrix);
    this.highlight.matrixWorldNeedsUpdate = true;
  }

  /** The glow of the picked unit: yellow (picked), red (a check names it) or green (the edited plan is valid). */
  glow(state: keyof typeof GLOW): void {
    this.glowMaterial.color.set(GLOW[state]);
  }

  /**
   * Edit mode: draws unit `unit` of this vehicle at `box` instead of where the plan has it (a
   * unit being dragged): its instance, its outline and, when it is the picked one, its glow.
   * Returns false when the unit is not in this vehicle.
   */
  moveUnit(unit: { item_id: string; instance: number }, box: SolidBox): boolean {
    const u = this.units.findIndex((p) => p.item_id === unit.item_id && p.instance === unit.instance);
    const part = this.parts.find((x) => x.itemId === unit.item_id);
    const p = this.units[u];
    if (!p || !part) return false;
    const moved: Placement = { ...p, ...box };
    const cylinder = this.isRound(p);
    part.mesh.setMatrixAt(part.units.indexOf(p), unitMatrix(moved, cylinder, new Matrix4()));
    part.mesh.instanceMatrix.needsUpdate = true;
    part.mesh.computeBoundingSphere();
    part.mesh.computeBoundingBox();
    const position = this.edges.geometry.getAttribute('position') as Float32BufferAttribute;
    writeUnitEdges(moved, cylinder, position.array as Float32Array, this.edgeStart[u]!);
    position.needsUpdate = true;
    if (this.selected && this.selected.item_id === p.item_id && this.selected.instance === p.instance)
      this.select(moved);
    return true;
  }

  /** Edit mode: marks `units` (drawn boxes, at most 200) in red over everything; an empty list clears the marks. */
  mark(units: readonly SolidBox[]): void {
    for (const child of [...this.marks.children]) this.marks.remove(child);
    for (const b of units.slice(0, 200)) {
      const m = new Mesh(BOX, this.markMaterial);
      m.position.set(b.x + b.length / 2, b.y + b.height / 2, b.z + b.width / 2);
      m.scale.set(b.length + 2, b.height + 2, b.width + 2);
      m.renderOrder = 29;
      this.marks.add(m);
    }
  }

  /**
   * Edit mode: where a unit dragged along `raycaster`'s ray would rest: on the top face of the
   * first drawn unit the ray meets (not `except`), else on the floor. Null when the ray misses
   * both (it points above the horizon). Plan coordinates, cm.
   */
  surfaceUnder(
    raycaster: Raycaster,
    except: { item_id: string; instance: number } | null,
  ): { x: number; y: number; z: number; on: Placement | null } | null {
    const hits = raycaster.intersectObjects(
      this.parts.map((p) => p.mesh),
      false,
    );
    for (const hit of hits) {
      const part = this.parts.find((p) => p.mesh === hit.object);
      if (!part || hit.instanceId === undefined || hit.instanceId >= part.mesh.count) continue;
      const p = part.units[hit.instanceId];
      if (!p || (except && p.item_id === except.item_id && p.instance === except.instance)) continue;
      const top = p.y + p.height;
      // The top face: the hit point lies at the unit's top (any face normal of a cylinder's cap too).
      if (Math.abs(hit.point.y - top) < 0.5) return { x: hit.point.x, y: top, z: hit.point.z, on: p };
      break;
    }
    const floor = raycaster.ray.intersectPlane(FLOOR, new Vector3());
    return floor ? { x: floor.x, y: 0, z: floor.z, on: null } : null;
  }

  /** Frees the meshes' materials and the edge geometry (the shared unit geometries stay). */
  dispose(): void {
    this.markMaterial.dispose();
    for (const part of this.parts) {
      (part.mesh.material as MeshLambertMaterial).dispose();
      part.mesh.dispose();
    }
    this.edges.geometry.dispose();
    (this.edges.material as LineBasicMaterial).dispose();
    for (const shape of [this.glowShapes.box, this.glowShapes.cylinder]) {
      for (const child of shape.children as (Mesh | LineSegments)[]) {
        if (child.geometry !== BOX && child.geometry !== CYLINDER) child.geometry.dispose();
        (child.material as MeshBasicMaterial | LineBasicMaterial).dispose();
      }
    }
  }
}
