/**
 * The load-plan PDF (spec Job.pdf_url: "3D views + loading steps"): A4 landscape, a summary
 * page (more when the lists are long), then for each vehicle an overview page (3D view, floor
 * plan, legend) followed by its loading-step pages. Every page carries a footer with the job
 * id and "page n of N". Lengths in cm, weights in kg.
 */
import PDFDocument from 'pdfkit';
import type { Plan } from '../../domain/pack/plan.js';
import { assignItemColours, itemColour } from './item-colour.js';
import { FOOTER_Y, CONTENT_WIDTH, type Doc, FONT, FONT_FILES, MARGIN, printableText, textCell } from './page.js';
import { stepPageCount, drawStepPages } from './step-table.js';
import { drawSummary, fillVehiclePages } from './summary-page.js';
import { drawVehiclePage } from './vehicle-page.js';

/** Per vehicle_id the second deck's height (cm), and the ids of hazardous items. */
export interface CargoFacts {
  deckHeights?: Record<string, number>;
  hazardous?: string[];
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
}

/**
 * Renders the load plan as a PDF: a cover/summary page, then one overview page plus
 * ceil(units / STEP_ROWS_PER_PAGE) loading-step pages per vehicle. Resolves with the whole
 * file; rejects when pdfkit fails. Items without a valid colour get a stable palette colour.
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
  const slots = drawSummary(pdf, doc, doc.plan, addPage);
  const pages: Array<{ first: number; last: number }> = [];
  for (const v of vehicles) {
    addPage();
    const first = pageCount();
    const steps = stepPageCount(v.placements.length);
    const facts = { deckHeight: doc.cargo?.deckHeights?.[v.vehicle_id] ?? null, hazardous: new Set(doc.cargo?.hazardous ?? []) };
    drawVehiclePage(pdf, v, colourOf, { vehicleCount: vehicles.length, stepPages: { first: first + 1, last: first + steps }, deckHeight: facts.deckHeight });
    drawStepPages(pdf, v, colourOf, vehicles.length, addPage, facts);
    pages.push({ first, last: pageCount() });
  }
  fillVehiclePages(pdf, slots, pages);

  const total = pageCount();
  const ref = doc.reference !== undefined && doc.reference !== '' ? `  ·  ${doc.reference}` : '';
  for (let i = 0; i < total; i++) {
    pdf.switchToPage(i);
    pdf.lineWidth(0.4).strokeColor('#bbbbbb').moveTo(MARGIN, FOOTER_Y - 4).lineTo(MARGIN + CONTENT_WIDTH, FOOTER_Y - 4).stroke();
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
