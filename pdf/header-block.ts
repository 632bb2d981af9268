/**
 * The header block of the load-plan PDF: a row of boxed fields at the top of the
 * summary and of every vehicle page with the job reference, the job id and the plan date, and
 * empty fields the crew fills in by hand: the seal number and the loader's signature.
 */
import { CONTENT_WIDTH, type Doc, MARGIN, textCell } from './page.js';

/** Height of the block, pt. */
export const HEADER_BLOCK_HEIGHT = 30;

/** What the block prints: the job's reference (may be absent), its id and its RFC 3339 creation time. */
export interface HeaderFacts {
  jobId: string;
  reference?: string;
  createdAt: string;
}

/** "2024-06-01 08:30 UTC" from an RFC 3339 time; the text as given when it does not parse. */
export function planDate(createdAt: string): string {
  const t = new Date(createdAt);
  if (Number.isNaN(t.getTime())) return createdAt;
  const iso = t.toISOString();
  return `${iso.slice(0, 10)} ${iso.slice(11, 16)} UTC`;
}

/**
 * Draws the block across the content width with its top at `y` (pt); returns the y below it.
 * Fields: Reference, Job, Plan date, Seal number (empty), Loaded by · signature (empty).
 */
export function drawHeaderBlock(doc: Doc, facts: HeaderFacts, y: number): number {
  const reference = facts.reference !== undefined && facts.reference !== '' ? facts.reference : '—';
  const fields: Array<[title: string, value: string | null, width: number]> = [
    ['Reference', reference, 226],
    ['Job', facts.jobId, 120],
    ['Plan date', planDate(facts.createdAt), 130],
    ['Seal number', null, 140],
    ['Loaded by · signature', null, CONTENT_WIDTH - 226 - 120 - 130 - 140],
  ];
  let x = MARGIN;
  doc.save();
  for (const [title, value, width] of fields) {
    const empty = value === null;
    doc
      .lineWidth(empty ? 0.8 : 0.5)
      .rect(x, y, width, HEADER_BLOCK_HEIGHT)
      .fillAndStroke(empty ? '#ffffff' : '#f1f4f7', empty ? '#555555' : '#9aa8b6');
    textCell(doc, title, x + 4, y + 3, width - 8, { size: 6.5, colour: '#555555' });
    if (!empty) textCell(doc, value, x + 4, y + 14, width - 8, { size: 9.5, bold: true });
    x += width;
  }
  doc.restore();
  return y + HEADER_BLOCK_HEIGHT;
}
