/**
 * The load-plan PDF (spec Job.pdf_url: "3D views + loading steps"; items 2–4): A4
 * landscape, a summary page (more when the lists are long), then for each vehicle an overview
 * page (header block, 3D view, floor plan, weight per metre, colour key) followed by its loading
 * instructions (packing list, blocks of units with pictures), and an appendix with every
 * vehicle's unit list. Every page carries a footer with the job id and "page n of N". Lengths
 * in cm and weights in kg, or in inches and pounds for an organization that shows imperial
 * units (PlanDocument.displayUnits; measures.ts).
 */
import PDFDocument from 'pdfkit';
import type { DisplayUnits } from '../display/units.js';
import { measures } from './measures.js';
import type { Plan } from '../domain/pack/plan.js';
import { assignItemColours, itemColour } from '../display/item-colour.js';
import { FOOTER_Y, CONTENT_WIDTH, type Doc, FONT, FONT_FILES, MARGIN, printableText, textCell } from './page.js';
import { drawInstructionPages } from './instruction-pages.js';
import { drawStepPages } from './step-table.js';
import { drawSummary, fillVehiclePages } from './summary-page.js';
import { type TextSlot, drawVehiclePage, fillTextSlot } from './vehicle-page.js';

/** Per vehicle_id the second deck's height (cm), the ids of hazardous items and of round items. */
export interface CargoFacts {
  deckHeights?: Record<string, number>;
  hazardous?: string[];
  /** item_ids of shape `cylinder` or `drum`: drawn as discs and cylinders. */
  round?: string[];
}

/** What the PDF shows: the job's identity and its plan; `colors` maps item_id → `#rrggbb`. */
export interface PlanDocument {
  jobId: string;
  reference?: string;
  /** RFC 3339. */
  createdAt: string;
  plan: Plan;
  colors?: Record<string, string>;
  /** Facts of the request the result does not carry: second decks and hazardous items. */
  cargo?: CargoFacts;
  /** The organization's display units (OrganizationDocument.displayUnits); absent: metric (cm, kg). */
  displayUnits?: DisplayUnits;
}

/**
 * Renders the load plan as a PDF: a cover/summary page, then per vehicle an overview page and
 * its instruction pages, then the appendix with ceil(units / STEP_ROWS_PER_PAGE) unit-list pages
 * per vehicle. Resolves with the whole file; rejects when pdfkit fails. Items without a valid
 * colour get a stable palette colour.
 */
export function renderPlanPdf(doc: PlanDocument): Promise<Buffer> {
  return new Promise<Buffer>((resolve, reject) => {
    const created = new Date(doc.createdAt);
    const pdf: Doc = new PDFDocument({
      size: 'A4',
      layout: 'landscape',
      margin: 0,
      bufferPages: true,
      autoFirstPage: true,
      info: {
        Title: `Load plan ${doc.jobId}`,
        // Any JSON string may be a reference: pdfkit's file id hashes this through encodeURIComponent.
        Subject: printableText(doc.reference ?? ''),
        Creator: 'packing-service',
        // A fixed date keeps the bytes of one plan identical across renders.
        CreationDate: Number.isNaN(created.getTime()) ? new Date(0) : created,
      },
    });
    for (const [name, file] of Object.entries(FONT_FILES)) pdf.registerFont(name, file);
    pdf.font(FONT);
    const chunks: Buffer[] = [];
    pdf.on('data', (c: Buffer) => chunks.push(c));
    pdf.on('end', () => resolve(Buffer.concat(chunks)));
    pdf.on('error', reject);
    try {
      layout(pdf, doc);
      pdf.end();
    } catch (err) {
      reject(err instanceof Error ? err : new Error(String(err)));
    }
  });
}

function layout(pdf: Doc, doc: PlanDocument): void {
  const ids = doc.plan.vehicles.flatMap((v) => v.placements.map((p) => p.item_id));
  const colours = assignItemColours(ids, doc.colors);
  const colourOf = (itemId: string): string => colours.get(itemId) ?? itemColour(itemId, doc.colors);
  const addPage = (): void => {
    pdf.addPage({ size: 'A4', layout: 'landscape', margin: 0 });
  };
  const pageCount = (): number => pdf.bufferedPageRange().count;

  const { vehicles } = doc.plan;
  const header = {
    jobId: doc.jobId,
    ...(doc.reference !== undefined ? { reference: doc.reference } : {}),
    createdAt: doc.createdAt,
  };
  const hazardous = new Set(doc.cargo?.hazardous ?? []);
  const round = new Set(doc.cargo?.round ?? []);
  // Own keys only: a vehicle id such as "toString" must not find Object.prototype's.
  const decks = doc.cargo?.deckHeights ?? {};
  const deckOf = (vehicleId: string): number | null => (Object.hasOwn(decks, vehicleId) ? decks[vehicleId]! : null);
  const m = measures(doc.displayUnits);
  const slots = drawSummary(pdf, header, doc.plan, addPage, m);
  const pages: Array<{ first: number; last: number }> = [];
  const pageSlots: TextSlot[] = [];
  for (const v of vehicles) {
    addPage();
    const first = pageCount();
    const deckHeight = deckOf(v.vehicle_id);
    const overview = drawVehiclePage(
      pdf,
      v,
      colourOf,
      { vehicleCount: vehicles.length, deckHeight, header, round, measures: m },
      first - 1,
    );
    const ins = drawInstructionPages(
      pdf,
      v,
      colourOf,
      {
        vehicleCount: vehicles.length,
        deckHeight,
        hazardous,
        legendRest: overview.legendRest,
        overviewPage: first,
        round,
        measures: m,
      },
      addPage,
    );
    pages.push({ first, last: ins.last });
    pageSlots.push(overview.pagesSlot);
  }
  const appendix: Array<{ first: number; last: number }> = [];
  for (const v of vehicles) {
    const first = pageCount() + 1;
    drawStepPages(pdf, v, colourOf, vehicles.length, addPage, {
      deckHeight: deckOf(v.vehicle_id),
      hazardous,
      round,
      measures: m,
    });
    appendix.push({ first, last: pageCount() });
  }
  const range = (r: { first: number; last: number }): string =>
    r.first === r.last ? `page ${r.first}` : `pages ${r.first}–${r.last}`;
  vehicles.forEach((_, i) => {
    fillTextSlot(
      pdf,
      pageSlots[i]!,
      `Loading instructions: ${range({ first: pages[i]!.first + 1, last: pages[i]!.last })}  ·  unit list: ${range(appendix[i]!)} (appendix)`,
    );
  });
  fillVehiclePages(pdf, slots, pages);

  const total = pageCount();
  const ref = doc.reference !== undefined && doc.reference !== '' ? `  ·  ${doc.reference}` : '';
  for (let i = 0; i < total; i++) {
    pdf.switchToPage(i);
    pdf
      .lineWidth(0.4)
      .strokeColor('#bbbbbb')
      .moveTo(MARGIN, FOOTER_Y - 4)
      .lineTo(MARGIN + CONTENT_WIDTH, FOOTER_Y - 4)
      .stroke();
    textCell(pdf, `Load plan ${doc.jobId}${ref}  ·  ${doc.createdAt}`, MARGIN, FOOTER_Y, CONTENT_WIDTH - 90, {
      size: 7,
      colour: '#666666',
    });
    textCell(pdf, `Page ${i + 1} of ${total}`, MARGIN + CONTENT_WIDTH - 90, FOOTER_Y, 90, {
      size: 7,
      align: 'right',
      colour: '#666666',
    });
  }
}
