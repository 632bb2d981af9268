/**
 * The drawn cargo space of one vehicle ("walls, door side, blocked areas, the second
 * deck as a plane; the centre of gravity"): floor, the front wall and side walls as translucent
 * planes, the outline of the space, the door frame (orange) at x = length, wall labels, blocked
 * floor areas (red), the second deck (a blue plane at its height), the middle of the length on
 * the floor and the centre of gravity (magenta ball with a drop line, drawn through the load).
 */
import {
  BoxGeometry,
  BufferGeometry,
  DoubleSide,
  EdgesGeometry,
  Float32BufferAttribute,
  Group,
  LineBasicMaterial,
  LineDashedMaterial,
  LineSegments,
  Mesh,
  MeshBasicMaterial,
  MeshLambertMaterial,
  PlaneGeometry,
  SphereGeometry,
  type Material,
  type Object3D,
} from 'three';
import type { ViewerVehicle } from '../../api/http/plan-viewer/viewer-plan.js';
import type { DisplayUnits } from '../../display/units.js';
import { measureWords } from './measure-words.js';
import { textSprite } from './text-sprite.js';

const DOOR = '#f28e2b';
const BLOCKED = '#d62728';
const DECK = '#1f77b4';
const COG = '#c2185b';

function boxOutline(length: number, height: number, width: number, colour: string): LineSegments {
  const lines = new LineSegments(
    new EdgesGeometry(new BoxGeometry(length, height, width)),
    new LineBasicMaterial({ color: colour }),
  );
  lines.position.set(length / 2, height / 2, width / 2);
  return lines;
}

function plane(w: number, h: number, colour: string, opacity: number): Mesh {
  return new Mesh(
    new PlaneGeometry(w, h),
    new MeshBasicMaterial({ color: colour, transparent: opacity < 1, opacity, side: DoubleSide, depthWrite: false }),
  );
}

/** The cargo space of `vehicle` as a group in plan coordinates (cm), its deck height labelled in `units`; `dispose` frees it. */
export function cargoSpace(vehicle: ViewerVehicle, units: DisplayUnits = 'metric'): Group {
  const { length: L, width: W, height: H } = vehicle;
  const size = Math.max(L, W, H);
  const text = Math.max(12, size * 0.028);
  const g = new Group();
  g.name = 'cargo-space';

  const floor = new Mesh(new PlaneGeometry(L, W), new MeshLambertMaterial({ color: '#c9d1d9', side: DoubleSide }));
  floor.rotation.x = -Math.PI / 2;
  floor.position.set(L / 2, -0.5, W / 2);
  g.add(floor);
  g.add(boxOutline(L, H, W, '#52606d'));

  const front = plane(W, H, '#7b8794', 0.28);
  front.rotation.y = Math.PI / 2;
  front.position.set(0, H / 2, W / 2);
  const right = plane(L, H, '#9aa5b1', 0.1);
  right.position.set(L / 2, H / 2, 0);
  const left = plane(L, H, '#9aa5b1', 0.1);
  left.position.set(L / 2, H / 2, W);
  g.add(front, right, left);

  // The door frame: four bars around the open end at x = length.
  const bar = Math.max(2, Math.min(W, H) * 0.02);
  const doorMaterial = new MeshLambertMaterial({ color: DOOR });
  for (const [w, h, z, y] of [
    [bar, H + bar, 0, H / 2],
    [bar, H + bar, W, H / 2],
    [W + bar, bar, W / 2, H],
    [W + bar, bar, W / 2, 0],
  ] as const) {
    const piece = new Mesh(new BoxGeometry(bar, h, w), doorMaterial);
    piece.position.set(L, y, z);
    g.add(piece);
  }

  const label = (s: string, x: number, y: number, z: number, colour?: string): void => {
    const sprite = textSprite(s, text, colour);
    sprite.position.set(x, y, z);
    g.add(sprite);
  };
  label('FRONT WALL', 0, H + text * 1.2, W / 2);
  label('DOOR', L + text * 0.5, H + text * 1.2, W / 2, DOOR);
  label('LEFT', L / 2, H + text * 0.9, W);
  label('RIGHT', L / 2, H + text * 0.9, 0);

  for (const r of vehicle.blocked_areas) {
    const zone = new Mesh(
      new BoxGeometry(r.length, 2, r.width),
      new MeshBasicMaterial({ color: BLOCKED, transparent: true, opacity: 0.45, depthWrite: false }),
    );
    zone.position.set(r.x + r.length / 2, 1, r.z + r.width / 2);
    const edge = new LineSegments(
      new EdgesGeometry(new BoxGeometry(r.length, 2, r.width)),
      new LineBasicMaterial({ color: BLOCKED }),
    );
    edge.position.copy(zone.position);
    g.add(zone, edge);
  }

  if (vehicle.aux_deck) {
    const y = vehicle.aux_deck.height;
    const deck = plane(L, W, DECK, 0.16);
    deck.rotation.x = -Math.PI / 2;
    deck.position.set(L / 2, y, W / 2);
    const rim = new LineSegments(new EdgesGeometry(new PlaneGeometry(L, W)), new LineBasicMaterial({ color: DECK }));
    rim.rotation.x = -Math.PI / 2;
    rim.position.copy(deck.position);
    g.add(deck, rim);
    label(`DECK ${measureWords(units).length(y)}`, 0, y, W + text * 2.5, DECK);
  }

  // The middle of the length, dashed across the floor, for the centre of gravity to be read against.
  const middle = new LineSegments(
    new BufferGeometry().setAttribute('position', new Float32BufferAttribute([L / 2, 0.5, 0, L / 2, 0.5, W], 3)),
    new LineDashedMaterial({ color: '#323f4b', dashSize: size * 0.01, gapSize: size * 0.008 }),
  );
  middle.computeLineDistances();
  g.add(middle);

  const cog = vehicle.center_of_gravity;
  const ball = new Mesh(
    new SphereGeometry(Math.max(5, size * 0.011), 20, 12),
    new MeshBasicMaterial({ color: COG, depthTest: false }),
  );
  ball.position.set(cog.x, cog.y, cog.z);
  ball.renderOrder = 15;
  ball.name = 'centre-of-gravity';
  const drop = new LineSegments(
    new BufferGeometry().setAttribute(
      'position',
      new Float32BufferAttribute(
        [cog.x, cog.y, cog.z, cog.x, 0, cog.z, cog.x - size * 0.01, 0.5, cog.z, cog.x + size * 0.01, 0.5, cog.z],
        3,
      ),
    ),
    new LineBasicMaterial({ color: COG, depthTest: false }),
  );
  drop.renderOrder = 15;
  g.add(ball, drop);
  label('CoG', cog.x, cog.y + text * 1.1, cog.z, COG);
  return g;
}

/** Frees the geometries, materials and textures of `object` and its children. */
export function disposeObject(object: Object3D): void {
  object.traverse((o) => {
    const item = o as Object3D & { geometry?: BufferGeometry; material?: Material | Material[] };
    item.geometry?.dispose();
    const materials = Array.isArray(item.material) ? item.material : item.material ? [item.material] : [];
    for (const m of materials) {
      (m as Material & { map?: { dispose(): void } | null }).map?.dispose();
      m.dispose();
    }
  });
}
