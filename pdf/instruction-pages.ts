/**
 * The loading-instruction pages of one vehicle, what the crew reads: the rest of
 * the colour key when the overview page ran out of room, the packing list (every item on board
 * with its units and weight, the total and the loading metres), then the instructions in loading
 * order, each a block of units of one item (domain/pack/loading-instructions.ts), beside a
 * picture of the load after it: the new block in colour with its step numbers, what is already
 * loaded pale. A vehicle gets at most MAX_PICTURES pictures: with more instructions, small
 * neighbouring ones share a picture, which bounds the render time of large plans.
 */
import {
  type LoadingInstruction,
  blockPlace,
  blockShape,
  loadingInstructions,
  stepRange,
} from '../domain/pack/loading-instructions.js';
import type { Orientation, PlannedVehicle } from '../domain/pack/plan.js';
import { type ColourOf, type RoundItems, drawIsometricView } from './cargo-views.js';
import { LEGEND_LINE_HEIGHT, type LegendEntry, drawLegend } from './legend.js';
import { CONTENT_BOTTOM, CONTENT_WIDTH, type Doc, FONT, FONT_BOLD, MARGIN, textCell, wrapText } from './page.js';
import { instanceRanges } from './summary-page.js';
import { type Cell, type Column, ROW_HEIGHT, drawRow, flowTable } from './table.js';
import { ldmText, vehicleTitle } from './vehicle-page.js';
import { columnsIn, measures, type Measures } from './measures.js';

/** Most pictures one vehicle's instructions get. */
export const MAX_PICTURES = 24;
/** Size of one picture, pt. */
export const PICTURE_WIDTH = 400;
export const PICTURE_HEIGHT = 150;
/** Line heights of an instruction's headline and detail lines, pt. */
const HEAD_LINE = 11;
const DETAIL_LINE = 10;
const TEXT_X = MARGIN + PICTURE_WIDTH + 14;
const TEXT_WIDTH = CONTENT_WIDTH - PICTURE_WIDTH - 14;
const BODY_TOP = MARGIN + 42;

/** Consecutive instructions shown with one picture of the load after the last of them. */
export interface PictureStage {
  instructions: LoadingInstruction[];
  firstStep: number;
  lastStep: number;
  /** Units loaded in the stage. */
  units: number;
}

/**
 * Stages for `instructions` (in loading order): one per instruction while there are at most
 * `max`; beyond that the two neighbouring stages with the fewest units between them are merged
 * until `max` remain, so large blocks keep a picture of their own. O(n²) for n instructions.
 */
export function pictureStages(instructions: readonly LoadingInstruction[], max = MAX_PICTURES): PictureStage[] {
  const stages: PictureStage[] = instructions.map((i) => ({
    instructions: [i],
    firstStep: i.firstStep,
    lastStep: i.lastStep,
    units: i.count,
  }));
  while (stages.length > Math.max(1, max)) {
    let best = 0;
    for (let k = 1; k < stages.length - 1; k++) {
      if (stages[k]!.units + stages[k + 1]!.units < stages[best]!.units + stages[best + 1]!.units) best = k;
    }
    const a = stages[best]!,
      b = stages[best + 1]!;
    stages.splice(best, 2, {
      instructions: [...a.instructions, ...b.instructions],
      firstStep: a.firstStep,
      lastStep: b.lastStep,
      units: a.units + b.units,
    });
  }
  return stages;
}

/** What the instruction pages need besides the vehicle. */
export interface InstructionContext {
  vehicleCount: number;
  deckHeight: number | null;
  hazardous: ReadonlySet<string>;
  /** Colour-key entries the overview page could not hold, and that page's 1-based number. */
  legendRest: readonly LegendEntry[];
  overviewPage: number;
  /** Items drawn round (cylinders and drums); absent: none. */
  round?: RoundItems;
  /** Lengths and weights in the organization's display units; absent: metric. */
  measures?: Measures;
}

const PACKING_COLUMNS: readonly Column[] = [
  { title: '', width: 16 },
  { title: 'item_id', width: 130 },
  { title: 'Item', width: 310 },
  { title: 'Units', width: 50, align: 'right' },
  { title: 'kg each', width: 66, align: 'right' },
  { title: 'kg total', width: 76, align: 'right' },
  { title: 'Instructions', width: CONTENT_WIDTH - 678 },
];

function turnText(o: Orientation): string {
  if (o === 'lwh') return '';
  if (o === 'wlh') return '  ·  turned 90°';
  return '  ·  on its side';
}

/**
 * Instruction numbers as ranges ("1, 3–5, 9") that fit `width` pt at the table's body size; when
 * they do not, the first ranges that fit and the count: "1, 3–5 … 14 blocks".
 */
function numberList(doc: Doc, numbers: readonly number[], width: number): string {
  const full = instanceRanges(numbers);
  doc.font(FONT).fontSize(8);
  if (doc.widthOfString(full) <= width) return full;
  const parts = full.split(', ');
  const tail = ` … ${numbers.length} blocks`;
  let shown = parts[0]!;
  for (const part of parts.slice(1)) {
    if (doc.widthOfString(`${shown}, ${part}${tail}`) > width) break;
    shown += `, ${part}`;
  }
  return shown + tail;
}

/** One packing-list row per item on board, in order of first loading step. */
function packingRows(
  doc: Doc,
  instructions: readonly LoadingInstruction[],
  colourOf: ColourOf,
  hazardous: ReadonlySet<string>,
  round: ReadonlySet<string>,
  m: Measures,
): Cell[][] {
  const items = new Map<string, { label: string; units: number; kg: number; each: Set<number>; numbers: number[] }>();
  for (const ins of instructions) {
    let it = items.get(ins.itemId);
    if (it === undefined)
      items.set(ins.itemId, (it = { label: ins.label, units: 0, kg: 0, each: new Set(), numbers: [] }));
    it.units += ins.count;
    it.kg += ins.weight;
    it.numbers.push(ins.number);
    for (const p of ins.placements) it.each.add(p.weight);
  }
  return [...items.entries()].map(([id, it]) => [
    { swatch: colourOf(id), round: round.has(id) },
    id,
    hazardous.has(id) ? `HAZARDOUS · ${it.label}` : it.label,
    String(it.units),
    it.each.size === 1 ? m.weight([...it.each][0]!) : 'varies',
    m.weight(it.kg),
    numberList(doc, it.numbers, PACKING_COLUMNS[PACKING_COLUMNS.length - 1]!.width - 6),
  ]);
}

/**
 * Adds the instruction pages of `v` (the first with `addPage`) and returns their 1-based page
 * range. Every placement of `v` appears in exactly one instruction.
 */
export function drawInstructionPages(
  doc: Doc,
  v: PlannedVehicle,
  colourOf: ColourOf,
  ctx: InstructionContext,
  addPage: () => void,
): { first: number; last: number } {
  const m = ctx.measures ?? measures();
  const packingColumns = columnsIn(PACKING_COLUMNS, m);
  const instructions = loadingInstructions(v.placements, v.width, ctx.deckHeight);
  const stages = pictureStages(instructions);
  const pageNumber = (): number => doc.bufferedPageRange().count;
  const title = vehicleTitle(v, ctx.vehicleCount);
  const newPage = (continued: boolean): number => {
    addPage();
    textCell(
      doc,
      `${title}  ·  loading instructions${continued ? ' (continued)' : ''}`,
      MARGIN,
      MARGIN,
      CONTENT_WIDTH,
      { size: 12, bold: true },
    );
    textCell(
      doc,
      'Load the blocks in this order. Across = side by side across the width, high = stacked, deep = one behind the other toward the door; distances from the front wall.',
      MARGIN,
      MARGIN + 17,
      CONTENT_WIDTH,
      { size: 7, colour: '#444444' },
    );
    textCell(
      doc,
      'Pictures: seen from the door side, front wall left, door right (red); the new block in colour with its step numbers, the load so far pale.',
      MARGIN,
      MARGIN + 26,
      CONTENT_WIDTH,
      { size: 7, colour: '#444444' },
    );
    return BODY_TOP;
  };
  let y = newPage(false);
  const first = pageNumber();

  let rest = [...ctx.legendRest];
  if (rest.length > 0) {
    textCell(doc, `Colour key (continued from page ${ctx.overviewPage})`, MARGIN, y, CONTENT_WIDTH, {
      size: 10,
      bold: true,
    });
    y += 14;
    for (;;) {
      const lines = Math.max(1, Math.floor((CONTENT_BOTTOM - y) / LEGEND_LINE_HEIGHT));
      const { drawn, y: below } = drawLegend(doc, rest, colourOf, y, lines, undefined, ctx.round);
      rest = rest.slice(drawn);
      y = below + 8;
      if (rest.length === 0) break;
      y = newPage(true);
    }
  }

  textCell(doc, `Packing list  ·  loading metres (LDM) ${ldmText(v)}`, MARGIN, y, CONTENT_WIDTH, {
    size: 10,
    bold: true,
  });
  const rows = packingRows(doc, instructions, colourOf, ctx.hazardous, ctx.round ?? new Set(), m);
  y = flowTable(doc, packingColumns, rows, MARGIN, y + 14, CONTENT_BOTTOM, () => newPage(true)).y;
  if (y + ROW_HEIGHT > CONTENT_BOTTOM) y = newPage(true);
  const units = v.placements.length;
  y = drawRow(
    doc,
    packingColumns,
    [
      '',
      'Total',
      `${rows.length} item${rows.length === 1 ? '' : 's'}`,
      String(units),
      '',
      m.weight(v.total_weight),
      `${instructions.length} in all`,
    ],
    MARGIN,
    y,
    { stripe: false, bold: true },
  );
  y += 12;

  if (y + 14 + PICTURE_HEIGHT > CONTENT_BOTTOM) y = newPage(true);
  textCell(
    doc,
    `Loading instructions  ·  ${instructions.length} block${instructions.length === 1 ? '' : 's'}, ${units} units`,
    MARGIN,
    y,
    CONTENT_WIDTH,
    { size: 10, bold: true },
  );
  y += 16;
  if (instructions.length === 0) textCell(doc, 'Nothing to load.', MARGIN, y, CONTENT_WIDTH, { size: 9 });

  for (const stage of stages) {
    if (y + PICTURE_HEIGHT > CONTENT_BOTTOM) y = newPage(true);
    const pictureBottom = y + PICTURE_HEIGHT;
    doc.lineWidth(0.5).rect(MARGIN, y, PICTURE_WIDTH, PICTURE_HEIGHT).stroke('#c8c8c8');
    textCell(doc, `After step ${stage.lastStep}`, MARGIN + 4, y + 3, PICTURE_WIDTH - 8, {
      size: 7,
      bold: true,
      colour: '#333333',
    });
    drawIsometricView(
      doc,
      v,
      colourOf,
      { x: MARGIN + 4, y: y + 12, width: PICTURE_WIDTH - 8, height: PICTURE_HEIGHT - 16 },
      {
        deckHeight: ctx.deckHeight,
        upToStep: stage.lastStep,
        highlightFrom: stage.firstStep,
        compact: true,
        ...(ctx.round ? { round: ctx.round } : {}),
      },
    );
    let ey = y,
      ex = TEXT_X,
      ew = TEXT_WIDTH;
    let besidePicture = true;
    for (const ins of stage.instructions) {
      const hazardous = ctx.hazardous.has(ins.itemId);
      let lines = instructionLines(doc, ins, hazardous, ew, m);
      if (besidePicture && ey + lines.height > pictureBottom) {
        besidePicture = false;
        ex = MARGIN;
        ew = CONTENT_WIDTH;
        ey = Math.max(ey, pictureBottom + 6);
        lines = instructionLines(doc, ins, hazardous, ew, m);
      }
      if (ey + lines.height > CONTENT_BOTTOM) {
        ey = newPage(true);
        besidePicture = false;
        ex = MARGIN;
        ew = CONTENT_WIDTH;
        lines = instructionLines(doc, ins, hazardous, ew, m);
      }
      drawInstruction(doc, lines, colourOf(ins.itemId), ctx.round?.has(ins.itemId) === true, ex, ey);
      ey += lines.height;
    }
    y = (besidePicture ? Math.max(ey, pictureBottom) : ey) + 6;
    doc
      .lineWidth(0.4)
      .strokeColor('#dddddd')
      .moveTo(MARGIN, y - 3)
      .lineTo(MARGIN + CONTENT_WIDTH, y - 3)
      .stroke();
  }
  return { first, last: pageNumber() };
}

/** An instruction laid out for one width: the headline (at most two lines) and the detail lines, and their height, pt. */
interface InstructionLines {
  head: string[];
  details: string[];
  width: number;
  height: number;
}

/**
 * The lines of `ins` at `width` pt (swatch included): "3.  Steps 12–35:  24 × label" wrapped
 * to two lines at most, then the block's shape, place and weight, broken between those parts
 * when they do not fit one line. Labels are cut only past two full lines.
 */
function instructionLines(
  doc: Doc,
  ins: LoadingInstruction,
  hazardous: boolean,
  width: number,
  m: Measures,
): InstructionLines {
  const textWidth = width - 13;
  const head = wrapText(
    doc,
    `${ins.number}.  ${stepRange(ins)}:  ${ins.count} × ${hazardous ? 'HAZARDOUS · ' : ''}${ins.label}`,
    textWidth,
    FONT_BOLD,
    9,
    2,
  );
  const shape = blockShape(ins);
  const parts = [
    ...(shape === '' ? [] : [shape]),
    blockPlace(ins, m.distance),
    `${m.weight(ins.weight)} ${m.weightUnit}${turnText(ins.orientation)}`,
  ];
  doc.font(FONT).fontSize(8);
  const details: string[] = [];
  for (const part of parts) {
    const last = details[details.length - 1];
    if (last !== undefined && doc.widthOfString(`${last}  ·  ${part}`) <= textWidth)
      details[details.length - 1] = `${last}  ·  ${part}`;
    else details.push(part);
  }
  return { head, details, width, height: head.length * HEAD_LINE + details.length * DETAIL_LINE + 4 };
}

/** Draws an instruction laid out by instructionLines with its colour swatch (a disc for round items) at (x, y). */
function drawInstruction(
  doc: Doc,
  lines: InstructionLines,
  colour: string,
  round: boolean,
  x: number,
  y: number,
): void {
  if (round)
    doc
      .lineWidth(0.4)
      .circle(x + 4.5, y + 5.5, 4.5)
      .fillAndStroke(colour, '#333333');
  else
    doc
      .lineWidth(0.4)
      .rect(x, y + 1, 9, 9)
      .fillAndStroke(colour, '#333333');
  let ly = y + 1;
  for (const h of lines.head) {
    textCell(doc, h, x + 13, ly, lines.width - 13, { size: 9, bold: true });
    ly += HEAD_LINE;
  }
  for (const d of lines.details) {
    textCell(doc, d, x + 13, ly, lines.width - 13, { size: 8, colour: '#222222' });
    ly += DETAIL_LINE;
  }
}
