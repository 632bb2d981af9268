/**
 * Round units in the PDF: the cylinder geometry of round-unit.ts, the floor
 * plan drawing upright drums as discs and the 3D view as cylinders (checked on pixels rendered
 * by pdftoppm at 50 dpi: inside a disc is drum-coloured, the corner of its bounding box between
 * two discs is not), and whole PDFs of hand-built plans (36 staggered drums in a 20 ft
 * container, a mixed trailer) with their page counts.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import PDFDocument from 'pdfkit';
import t from 'tap';
import type { Placement, PlannedVehicle } from '../../domain/pack/plan.js';
import { drawIsometricView, drawTopView, isometricFrame, topViewFrame } from '../../pdf/cargo-views.js';
import { cargoFactsOf } from '../../pdf/cargo-facts.js';
import { project, projectionFor } from '../../pdf/isometric.js';
import { FONT, FONT_FILES, PAGE_HEIGHT, PAGE_WIDTH, type Doc } from '../../pdf/page.js';
import { type PlanDocument, renderPlanPdf } from '../../pdf/pdf.js';
import {
  type Path3,
  type Vec3,
  capSquare,
  footprintsOverlap,
  cylinderOf,
  cylinderOutline,
  endCircle,
  roundAxis,
} from '../../pdf/round-unit.js';
import { restingOn, stepPageCount } from '../../pdf/step-table.js';
import { verifyPlan } from '../../solver/verify/verify.js';
import { modelOf } from '../helpers/example-model.js';
import { countPdfPages } from './plan-fixture.js';
import { DRUM, DRUM_PITCH, containerOfDrums, mixedTrailer, roundPlan } from './round-fixture.js';

const hasPoppler = spawnSync('pdftoppm', ['-v']).error === undefined;
const ARTIFACTS = new URL('../../test-artifacts/pdf/', import.meta.url);
const DRUM_COLOUR = '#1f77b4';
const ROLL_COLOUR = '#2ca02c';
const PALLET_COLOUR = '#d62728';
const colourOf = (id: string): string =>
  id === 'drum-200' ? DRUM_COLOUR : id === 'roll' ? ROLL_COLOUR : PALLET_COLOUR;
const ROUND = new Set(['drum-200', 'roll']);
/** Length of a line of 9 drums, cm. */
const LINE = 9 * 2 * DRUM.radius;

/** Every point a path passes through (starts and ends of its steps). */
const endpoints = (path: Path3): Vec3[] => [path.start, ...path.steps.map((s) => s[s.length - 1]!)];

/** The point of a cubic Bézier at t. */
function bezierAt(p0: Vec3, c1: Vec3, c2: Vec3, p3: Vec3, t: number): Vec3 {
  const m = 1 - t;
  return [0, 1, 2].map(
    (k) => m * m * m * p0[k]! + 3 * m * m * t * c1[k]! + 3 * m * t * t * c2[k]! + t * t * t * p3[k]!,
  ) as unknown as Vec3;
}

t.test(
  'round-unit geometry: axis from the orientation, circles on the radius, silhouette at the outline',
  async (t) => {
    const drum = containerOfDrums().placements[0]!;
    t.equal(roundAxis(drum), 'y');
    t.equal(roundAxis({ orientation: 'wlh' }), 'y');
    t.equal(roundAxis({ orientation: 'hwl' }), 'x');
    t.equal(roundAxis({ orientation: 'hlw' }), 'x');
    t.equal(roundAxis({ orientation: 'lhw' }), 'z');
    t.equal(roundAxis({ orientation: 'whl' }), 'z');
    const c = cylinderOf(drum);
    t.same(c, { axis: 'y', base: [DRUM.radius, 0, DRUM.radius], radius: DRUM.radius, length: DRUM.height });
    const rolls = mixedTrailer().placements.filter((p) => p.item_id === 'roll');
    const along = cylinderOf(rolls.find((p) => p.orientation === 'hwl')!);
    t.same([along.axis, along.radius, along.length], ['x', 30, 120]);
    const across = cylinderOf(rolls.find((p) => p.orientation === 'lhw')!);
    t.same([across.axis, across.radius, across.length], ['z', 30, 120]);

    // The top circle: four quarter arcs whose ends and midpoints lie on the circle.
    const top = endCircle(c, 1);
    t.equal(top.steps.length, 4);
    let worst = 0;
    let from = top.start;
    for (const s of top.steps) {
      t.equal(s.length, 3, 'a curve step');
      const [c1, c2, end] = s as readonly [Vec3, Vec3, Vec3];
      for (const u of [0, 0.25, 0.5, 0.75, 1]) {
        const q = bezierAt(from, c1, c2, end, u);
        t.equal(q[1], DRUM.height, 'at the top');
        worst = Math.max(worst, Math.abs(Math.hypot(q[0] - c.base[0], q[2] - c.base[2]) - DRUM.radius));
      }
      from = end;
    }
    t.ok(worst < DRUM.radius * 3e-4, `radial error ${worst.toFixed(4)} cm`);

    // The band reaches the left and right of the projected cylinder: its silhouette lines are
    // where the outline is, and they run along the projected axis.
    for (const cyl of [c, along, across]) {
      for (const azimuth of [20, 30, 40]) {
        const p = projectionFor({ azimuth, elevation: 30 });
        const { band, cap } = cylinderOutline(p, cyl);
        const pts = endpoints(band).map((q) => project(p, q[0], q[1], q[2]));
        // Exact outline of the cylinder across its projected axis: sample both end circles densely.
        const e: Vec3 = cyl.axis === 'x' ? [1, 0, 0] : cyl.axis === 'y' ? [0, 1, 0] : [0, 0, 1];
        const [ae0, ae1] = [project(p, 0, 0, 0), project(p, e[0], e[1], e[2])];
        const n = [-(ae1[1] - ae0[1]), ae1[0] - ae0[0]];
        const across2 = (s: readonly [number, number]) => s[0] * n[0]! + s[1] * n[1]!;
        const samples: number[] = [];
        for (const end of [0, 1] as const) {
          const centre =
            end === 0
              ? cyl.base
              : ([
                  cyl.base[0] + e[0] * cyl.length,
                  cyl.base[1] + e[1] * cyl.length,
                  cyl.base[2] + e[2] * cyl.length,
                ] as Vec3);
          for (let k = 0; k < 3600; k++) {
            const a = (2 * Math.PI * k) / 3600;
            const [sp, sq]: [Vec3, Vec3] =
              cyl.axis === 'y'
                ? [
                    [1, 0, 0],
                    [0, 0, 1],
                  ]
                : cyl.axis === 'x'
                  ? [
                      [0, 1, 0],
                      [0, 0, 1],
                    ]
                  : [
                      [1, 0, 0],
                      [0, 1, 0],
                    ];
            const q = [0, 1, 2].map((i) => centre[i]! + cyl.radius * (Math.cos(a) * sp[i]! + Math.sin(a) * sq[i]!));
            samples.push(across2(project(p, q[0]!, q[1]!, q[2]!)));
          }
        }
        const bandAcross = pts.map(across2);
        t.ok(
          Math.abs(Math.max(...bandAcross) - Math.max(...samples)) < 1e-3 &&
            Math.abs(Math.min(...bandAcross) - Math.min(...samples)) < 1e-3,
          `axis ${cyl.axis}, azimuth ${azimuth}: the band spans the outline`,
        );
        // The near half: the band's arc points lie toward the viewer from the axis.
        const mid = endpoints(band)[1]!;
        const radial = [0, 1, 2].map((i) => (i === 'xyz'.indexOf(cyl.axis) ? 0 : mid[i]! - cyl.base[i]!));
        t.ok(
          radial[0]! * p.toViewer[0] + radial[1]! * p.toViewer[1] + radial[2]! * p.toViewer[2] > 0,
          `axis ${cyl.axis}, azimuth ${azimuth}: the band is the near half`,
        );
        t.equal(cap.steps.length, 4);
      }
    }
    t.equal(capSquare(c).length, 4);
  },
);

t.test('the hand-built plans pass the verifier (circles of staggered drums touch, never cut)', async (t) => {
  const body = {
    vehicles: [
      {
        id: 'c20',
        type: 'container',
        name: '20 ft container',
        length: 589,
        width: 235,
        height: 239,
        max_weight: 28_000,
      },
      {
        id: 'semi',
        type: 'trailer',
        name: 'Semi-trailer 13.6 m',
        length: 1360,
        width: 248,
        height: 270,
        max_weight: 24_000,
      },
    ],
    items: [
      {
        id: 'drum-200',
        label: 'Drum 200 l',
        shape: 'drum',
        radius: DRUM.radius,
        height: DRUM.height,
        weight: DRUM.weight,
        quantity: 84,
      },
      {
        id: 'pal-eur',
        label: 'EUR pallet',
        shape: 'pallet',
        length: 120,
        width: 80,
        height: 140,
        weight: 500,
        quantity: 6,
      },
      {
        id: 'roll',
        label: 'Paper roll',
        shape: 'cylinder',
        radius: 30,
        height: 120,
        weight: 300,
        quantity: 8,
        rotation: 'all',
      },
    ],
    options: { packing_mode: 'fleet_only' },
  };
  const { model } = modelOf(body) as unknown as { model: Parameters<typeof verifyPlan>[0] };
  const plan = roundPlan();
  t.same(
    plan.vehicles.map((v) => v.placements.length),
    [36, 62],
    '36 drums in the container; 6 pallets, 48 drums, 8 rolls in the trailer',
  );
  t.same(
    verifyPlan(model, plan).map((v) => `${v.rule}: ${v.message}`),
    [],
  );
  t.equal(cargoFactsOf(model).round.join(), 'drum-200,roll');
});

t.test('unit list: a drum of a staggered layer rests on the drum under it, not on its neighbours', async (t) => {
  const v = mixedTrailer();
  const drums = v.placements.filter((p) => p.item_id === 'drum-200');
  const upper = drums.filter((p) => p.y > 0);
  const under = (p: Placement) => drums.find((q) => q.y === 0 && q.x === p.x && q.z === p.z)!;
  const asRound = restingOn(v.placements, null, new Set(['drum-200', 'roll']));
  t.same(
    upper.filter((p) => asRound.get(p) !== `on ${under(p).step}`).map((p) => `${p.instance}: ${asRound.get(p)}`),
    [],
    'each of the 24 upper drums on one drum',
  );
  t.equal(upper.length, 24);
  // As boxes, a drum of an inner line overlaps the boxes of the neighbouring lines' drums.
  const asBoxes = restingOn(v.placements);
  t.ok(
    upper.some((p) => (asBoxes.get(p) ?? '').includes(',')),
    'as boxes some rest on several',
  );
  // Footprints: circles that touch do not overlap, a box in a drum box's corner does not either.
  const [a, b] = [drums[0]!, drums.find((q) => q.y === 0 && q.z > 0 && q.x === drums[0]!.x + DRUM.radius)!];
  t.ok(footprintsOverlap(a, false, b, false), 'the boxes of staggered neighbours overlap');
  t.notOk(footprintsOverlap(a, true, b, true), 'their circles only touch');
  const corner = { ...a, x: a.x - 5, z: a.z - 5, length: 10, width: 10 };
  t.notOk(footprintsOverlap(a, true, corner, false), "a 10 cm box on the corner of the drum's box: outside the circle");
  t.ok(footprintsOverlap(a, true, { ...corner, x: a.x + 20, z: a.z + 20 }, false), 'a box inside the circle');
});

t.test('cargoFactsOf: round items are the cylinders and drums of the model', async (t) => {
  const facts = cargoFactsOf({
    vehicles: [
      { id: 'v', auxDeck: { height: 120, maxWeight: 1000 } },
      { id: 'w', auxDeck: null },
    ] as never,
    items: [
      { id: 'a', shape: 'drum', hazardous: true },
      { id: 'b', shape: 'box', hazardous: false },
      { id: 'c', shape: 'cylinder', hazardous: false },
      { id: 'd', shape: 'pallet', hazardous: false },
    ] as never,
  });
  t.same(facts, { deckHeights: { v: 120 }, hazardous: ['a'], round: ['a', 'c'] });
  t.same(cargoFactsOf(null), { deckHeights: {}, hazardous: [], round: [] });
});

/** A binary PPM (P6, 8 bit) as width, height and RGB bytes. */
function readPpm(file: string): {
  width: number;
  height: number;
  rgb: (x: number, y: number) => [number, number, number];
} {
  const data = readFileSync(file);
  const header = /^P6\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error(`${file} is not an 8-bit PPM`);
  const width = Number(header[1]),
    height = Number(header[2]);
  const pixels = data.subarray(header[0].length);
  return {
    width,
    height,
    rgb: (x, y) => {
      const i = (Math.round(y) * width + Math.round(x)) * 3;
      return [pixels[i]!, pixels[i + 1]!, pixels[i + 2]!];
    },
  };
}

const hex = (c: string): [number, number, number] =>
  [1, 3, 5].map((i) => parseInt(c.slice(i, i + 2), 16)) as [number, number, number];
const near = (a: readonly number[], b: readonly number[], tol = 24): boolean =>
  a.every((v, i) => Math.abs(v - b[i]!) <= tol);

/** One page drawn by `draw`, rendered by pdftoppm at `dpi`; pixels addressed in pt. */
async function renderPage(
  name: string,
  draw: (doc: Doc) => void,
  dpi = 50,
): Promise<(xPt: number, yPt: number) => [number, number, number]> {
  const doc: Doc = new PDFDocument({ size: [PAGE_WIDTH, PAGE_HEIGHT], margin: 0 });
  for (const [font, file] of Object.entries(FONT_FILES)) doc.registerFont(font, file);
  doc.font(FONT);
  const chunks: Buffer[] = [];
  doc.on('data', (c: Buffer) => chunks.push(c));
  const done = new Promise<void>((resolve) => doc.on('end', () => resolve()));
  draw(doc);
  doc.end();
  await done;
  const work = mkdtempSync(join(tmpdir(), 'round-render-'));
  try {
    writeFileSync(join(work, `${name}.pdf`), Buffer.concat(chunks));
    execFileSync('pdftoppm', ['-r', String(dpi), '-singlefile', join(work, `${name}.pdf`), join(work, name)]);
    mkdirSync(ARTIFACTS, { recursive: true });
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '72',
      '-singlefile',
      join(work, `${name}.pdf`),
      new URL(name, ARTIFACTS).pathname,
    ]);
    const image = readPpm(join(work, `${name}.ppm`));
    const k = dpi / 72;
    return (x, y) => image.rgb(x * k, y * k);
  } finally {
    rmSync(work, { recursive: true, force: true });
  }
}

const poppler = { skip: hasPoppler ? false : 'pdftoppm (poppler-utils) not installed' };

t.test(
  'floor plan: upright drums are discs, the corners of their boxes between two discs stay floor',
  poppler,
  async (t) => {
    const v = containerOfDrums();
    t.equal(v.placements.length, 36);
    const area = { x: 28, y: 40, width: 786, height: 500 };
    const pixel = await renderPage('round-top-view', (doc) => drawTopView(doc, v, colourOf, area, ROUND));
    const { x0, z0, scale } = topViewFrame(v, area);
    const at = (x: number, z: number) => pixel(x0 + x * scale, z0 + z * scale);
    const drum = hex(DRUM_COLOUR);
    let inDisc = 0,
      inCorner = 0;
    for (const p of v.placements.filter((q) => q.z === 0)) {
      // Inside the disc, off the step label in its middle.
      if (near(at(p.x + DRUM.radius, p.z + DRUM.radius * 1.6), drum)) inDisc++;
      // The bounding box's corner at the right wall, 3 cm inside it, in the gap to the next disc of the line.
      if (p.x + p.length < LINE - 1 && !near(at(p.x + p.length - 3, 10), drum, 60)) inCorner++;
    }
    t.equal(inDisc, 9, 'inside each disc of the first line: drum-coloured');
    t.equal(inCorner, 8, "between two discs of the first line, inside both boxes' corners: not drum-coloured");
    // The second line is shifted by a radius: its first disc starts at x = r.
    t.notOk(near(at(5, DRUM_PITCH + DRUM.radius), drum, 60), 'before the shifted line: floor');
    t.ok(near(at(DRUM.radius + DRUM.radius, DRUM_PITCH + DRUM.radius * 1.6), drum), "the shifted line's first disc");

    // Without the round items the same plan is drawn as boxes: the corner is drum-coloured.
    const boxes = await renderPage('box-top-view', (doc) => drawTopView(doc, v, colourOf, area));
    const p0 = v.placements.find((q) => q.z === 0 && q.x === 0)!;
    t.ok(
      near(boxes(x0 + (p0.x + p0.length - 3) * scale, z0 + 10 * scale), drum, 60),
      'drawn as boxes, the corner is drum-coloured',
    );
  },
);

t.test(
  '3D view: drums are cylinders, the top corners of their boxes between two tops are not drum',
  poppler,
  async (t) => {
    const v = containerOfDrums();
    const area = { x: 28, y: 40, width: 786, height: 500 };
    const pixel = await renderPage('round-3d-view', (doc) =>
      drawIsometricView(doc, v, colourOf, area, { compact: true, round: ROUND }),
    );
    const { toPage } = isometricFrame(v, area);
    let onTop = 0,
      corner = 0;
    // The line nearest the viewer (highest z): nothing stands in front of its tops.
    const front = v.placements.filter((q) => Math.abs(q.z - 3 * DRUM_PITCH) < 0.01);
    t.equal(front.length, 9);
    for (const p of front) {
      const [cx, cz] = [p.x + DRUM.radius, p.z + DRUM.radius];
      const rgb = pixel(...toPage(cx, DRUM.height, cz + DRUM.radius * 0.6));
      // The lit top: a lighter drum colour, bluish.
      if (rgb[2] > rgb[0] + 40 && rgb[2] > 150) onTop++;
      // The top corner of its box toward the viewer and the door, between this top and the next one's.
      if (p.x + p.length < LINE + DRUM.radius - 1) {
        const c = pixel(...toPage(p.x + p.length - 3, DRUM.height, p.z + p.width - 3));
        if (!(c[2] > c[0] + 40 && c[2] > 150 && c[1] > 150)) corner++;
      }
    }
    t.equal(onTop, 9, "on each front drum's top: the lit drum colour");
    t.equal(corner, 8, 'at the near top corner of each box between two drums: not the lit top');
  },
);

t.test('whole PDFs: 36 staggered drums and a mixed load render with the expected pages', async (t) => {
  const plan = roundPlan();
  const base: Omit<PlanDocument, 'plan'> = {
    jobId: 'job_drums',
    reference: 'Drums',
    createdAt: '2026-11-23T10:00:00Z',
    colors: { 'drum-200': DRUM_COLOUR },
  };
  const round = await renderPlanPdf({ ...base, plan, cargo: { round: ['drum-200', 'roll'] } });
  const boxes = await renderPlanPdf({ ...base, plan });
  mkdirSync(ARTIFACTS, { recursive: true });
  writeFileSync(new URL('round-cargo.pdf', ARTIFACTS), round);
  t.notOk(round.equals(boxes), 'round items change the drawing');
  const pages = countPdfPages(round);
  t.equal(pages, countPdfPages(boxes), 'the same pages as drawn as boxes');
  // Summary, per vehicle an overview and its instruction pages (three pictures a page), then the
  // unit lists. The container's 36 staggered drums are one block (one page); the trailer has 4
  // blocks: pallets, 48 staggered drums 2 high, and two blocks of rolls (two pages).
  t.equal(pages, 1 + (1 + 1) + (1 + 2) + stepPageCount(36) + stepPageCount(62), `${pages} pages`);
  t.ok(
    round.length < boxes.length * 2 && round.length < 400 * 1024,
    `size ${(round.length / 1024).toFixed(0)} KiB against ${(boxes.length / 1024).toFixed(0)} KiB as boxes`,
  );
  t.comment(
    `round cargo PDF: ${plan.vehicles.map((v) => `${v.placements.length} units in ${v.name}`).join(', ')}; ${pages} pages, ${(round.length / 1024).toFixed(0)} KiB`,
  );
  if (hasPoppler)
    execFileSync('pdftoppm', [
      '-png',
      '-r',
      '50',
      '-f',
      '2',
      '-l',
      '4',
      new URL('round-cargo.pdf', ARTIFACTS).pathname,
      new URL('round-cargo', ARTIFACTS).pathname,
    ]);
  const all: Placement[] = plan.vehicles.flatMap((v: PlannedVehicle) => v.placements);
  t.equal(all.length, 98);
});
