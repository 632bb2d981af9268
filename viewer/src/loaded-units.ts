/**
 * The units of one vehicle as GPU objects, cheap for thousands of units (issue 9: a 2,000-unit
 * plan loads and orbits smoothly): one InstancedMesh per item (boxes, or cylinders for
 * `cylinder` and `drum` items, their axis along the placed side that is the item's height) and
 * all box edges in one LineSegments. Instances and edges are kept in loading-step order, so
 * "show steps 1..s" is a count per mesh and a draw range on the edges, nothing rebuilt.
 */
import {
  BoxGeometry, BufferGeometry, CylinderGeometry, EdgesGeometry, Float32BufferAttribute, Group, InstancedMesh, LineBasicMaterial,
  LineSegments, Matrix4, Mesh, MeshBasicMaterial, MeshLambertMaterial, Quaternion, Vector3, type Raycaster,
} from 'three';
import type { ViewerItem, ViewerVehicle } from '../../api/viewer-plan.js';
import type { Placement } from '../../domain/pack/plan.js';

interface Part {
  itemId: string;
  mesh: InstancedMesh;
  /** This item's units in the order of their instances (loading step, then plan order). */
  units: Placement[];
}

const BOX = new BoxGeometry(1, 1, 1);
const CYLINDER = new CylinderGeometry(0.5, 0.5, 1, 24);
/** Corners of the unit box, and the 12 edges between them (pairs of corner indices). */
const CORNERS = [[0, 0, 0], [1, 0, 0], [1, 0, 1], [0, 0, 1], [0, 1, 0], [1, 1, 0], [1, 1, 1], [0, 1, 1]] as const;
const EDGES = [[0, 1], [1, 2], [2, 3], [3, 0], [4, 5], [5, 6], [6, 7], [7, 4], [0, 4], [1, 5], [2, 6], [3, 7]] as const;
const VERTICES_PER_UNIT = EDGES.length * 2;

const byStep = (a: Placement, b: Placement): number => a.step - b.step;

/** Units of `sorted` (ascending steps) with step ≤ `step`. */
function countUpTo(sorted: readonly Placement[], step: number): number {
  let lo = 0, hi = sorted.length;
  while (lo < hi) {
    const mid = (lo + hi) >> 1;
    if (sorted[mid]!.step <= step) lo = mid + 1;
    else hi = mid;
  }
  return lo;
}

/** True for items drawn as cylinders. */
const round = (item: ViewerItem | undefined): boolean => item?.shape === 'cylinder' || item?.shape === 'drum';

/** The instance matrix of `p`: a unit box or cylinder scaled and moved onto the placement. */
function unitMatrix(p: Placement, cylinder: boolean, into: Matrix4): Matrix4 {
  const centre = new Vector3(p.x + p.length / 2, p.y + p.height / 2, p.z + p.width / 2);
  if (!cylinder) return into.compose(centre, new Quaternion(), new Vector3(p.length, p.height, p.width));
  // The orientation's letters name the defined side along x, z (width) and y (height).
  const axis = p.orientation.indexOf('h');
  const q = new Quaternion();
  let scale: Vector3;
  if (axis === 0) {
    q.setFromAxisAngle(new Vector3(0, 0, 1), -Math.PI / 2);
    scale = new Vector3(p.height, p.length, p.width);
  } else if (axis === 1) {
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
  private readonly edgeUnits: Placement[];
  private readonly highlight = new Group();

  constructor(vehicle: ViewerVehicle, items: ReadonlyMap<string, ViewerItem>) {
    this.units = [...vehicle.placements].sort(byStep);
    this.lastStep = this.units.reduce((m, p) => Math.max(m, p.step), 0);
    const perItem = new Map<string, Placement[]>();
    for (const p of this.units) {
      const list = perItem.get(p.item_id);
      if (list) list.push(p);
      else perItem.set(p.item_id, [p]);
    }
    const m = new Matrix4();
    for (const [itemId, units] of perItem) {
      const cylinder = round(items.get(itemId));
      const material = new MeshLambertMaterial({ color: '#888888', polygonOffset: true, polygonOffsetFactor: 1, polygonOffsetUnits: 1 });
      const mesh = new InstancedMesh(cylinder ? CYLINDER : BOX, material, units.length);
      units.forEach((p, i) => mesh.setMatrixAt(i, unitMatrix(p, cylinder, m)));
      mesh.instanceMatrix.needsUpdate = true;
      mesh.computeBoundingSphere();
      mesh.computeBoundingBox();
      mesh.name = `item:${itemId}`;
      this.parts.push({ itemId, mesh, units });
      this.object.add(mesh);
    }

    // Box edges only (a cylinder's outline is its shading): degenerate segments keep the
    // unit → vertex range arithmetic for round units.
    this.edgeUnits = this.units;
    const positions = new Float32Array(this.units.length * VERTICES_PER_UNIT * 3);
    this.units.forEach((p, u) => {
      if (round(items.get(p.item_id))) {
        positions.fill(0, u * VERTICES_PER_UNIT * 3, (u + 1) * VERTICES_PER_UNIT * 3);
        return;
      }
      let k = u * VERTICES_PER_UNIT * 3;
      for (const [a, b] of EDGES) {
        for (const c of [CORNERS[a], CORNERS[b]]) {
          positions[k++] = p.x + c[0] * p.length;
          positions[k++] = p.y + c[1] * p.height;
          positions[k++] = p.z + c[2] * p.width;
        }
      }
    });
    const edgeGeometry = new BufferGeometry().setAttribute('position', new Float32BufferAttribute(positions, 3));
    this.edges = new LineSegments(edgeGeometry, new LineBasicMaterial({ color: '#1f2933', transparent: true, opacity: 0.55 }));
    this.edges.name = 'unit-edges';
    this.object.add(this.edges);

    // The picked unit: a translucent yellow box with a dark outline, drawn over everything so
    // it shows through the units in front of it.
    const glow = new Mesh(BOX, new MeshBasicMaterial({ color: '#ffd400', transparent: true, opacity: 0.55, depthTest: false, depthWrite: false }));
    const outline = new LineSegments(new EdgesGeometry(BOX), new LineBasicMaterial({ color: '#111111', depthTest: false }));
    glow.renderOrder = 30;
    outline.renderOrder = 31;
    this.highlight.add(glow, outline);
    this.highlight.visible = false;
    this.object.add(this.highlight);
  }

  /** Shows the units of steps 1..`step` only; returns how many units are drawn. */
  showUpTo(step: number): number {
    let drawn = 0;
    for (const part of this.parts) {
      part.mesh.count = countUpTo(part.units, step);
      drawn += part.mesh.count;
    }
    this.edges.geometry.setDrawRange(0, countUpTo(this.edgeUnits, step) * VERTICES_PER_UNIT);
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
    const hits = raycaster.intersectObjects(this.parts.map((p) => p.mesh), false);
    for (const hit of hits) {
      const part = this.parts.find((p) => p.mesh === hit.object);
      if (part && hit.instanceId !== undefined && hit.instanceId < part.mesh.count) return part.units[hit.instanceId] ?? null;
    }
    return null;
  }

  /** Outlines `p` (drawn over everything), or hides the outline for null. */
  select(p: Placement | null): void {
    this.highlight.visible = p !== null;
    if (!p) return;
    const pad = 2;
    this.highlight.position.set(p.x + p.length / 2, p.y + p.height / 2, p.z + p.width / 2);
    this.highlight.scale.set(p.length + pad, p.height + pad, p.width + pad);
  }

  /** Frees the meshes' materials and the edge geometry (the shared unit geometries stay). */
  dispose(): void {
    for (const part of this.parts) {
      (part.mesh.material as MeshLambertMaterial).dispose();
      part.mesh.dispose();
    }
    this.edges.geometry.dispose();
    (this.edges.material as LineBasicMaterial).dispose();
    for (const child of this.highlight.children as (Mesh | LineSegments)[]) {
      if (child.geometry !== BOX) child.geometry.dispose();
      (child.material as MeshBasicMaterial | LineBasicMaterial).dispose();
    }
  }
}
