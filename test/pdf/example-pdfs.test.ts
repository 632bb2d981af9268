/**
 * The PDF of every example's plan ("Done when"): rendered with pdftoppm, the page count
 * is the one the plan calls for and every page has content in its body (not only the footer).
 * The pages are kept as PNGs in test-artifacts/pdf/ (git-ignored). The page count expected: the
 * summary, per vehicle one overview page and its instruction pages (the instructions all present,
 * at most MAX_PICTURES pictures), then per vehicle stepPageCount(units) unit-list pages.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, readdirSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import t from 'tap';
import { loadingInstructions } from '../../domain/pack/loading-instructions.js';
import type { PackModel, Plan } from '../../domain/pack/plan.js';
import { MAX_PICTURES, pictureStages } from '../../pdf/instruction-pages.js';
import { CONTENT_BOTTOM, PAGE_HEIGHT } from '../../pdf/page.js';
import { cargoFactsOf } from '../../pdf/cargo-facts.js';
import { renderPlanPdf } from '../../pdf/pdf.js';
import { stepPageCount } from '../../pdf/step-table.js';
import { search } from '../../solver/search/search.js';
import { modelOf } from '../helpers/example-model.js';

const EXAMPLES = new URL('../../examples/', import.meta.url);
const ARTIFACTS = new URL('../../test-artifacts/pdf/', import.meta.url);
const hasPoppler =
  spawnSync('pdftoppm', ['-v']).error === undefined && spawnSync('pdftotext', ['-v']).error === undefined;

/** A binary PGM (P5, 8 bit) as width, height and grey bytes. */
function readPgm(file: string): { width: number; height: number; pixels: Buffer } {
  const data = readFileSync(file);
  const header = /^P5\s+(\d+)\s+(\d+)\s+255\s/.exec(data.subarray(0, 40).toString('latin1'));
  if (!header) throw new Error(`${file} is not an 8-bit PGM`);
  return { width: Number(header[1]), height: Number(header[2]), pixels: data.subarray(header[0].length) };
}

/** Share of the pixels above the footer that are not white (grey < 230). */
function bodyInk(file: string): number {
  const { width, height, pixels } = readPgm(file);
  const rows = Math.floor((height * (CONTENT_BOTTOM + 2)) / PAGE_HEIGHT);
  let ink = 0;
  for (let i = 0; i < rows * width; i++) if (pixels[i]! < 230) ink++;
  return ink / (rows * width);
}

/** The request facts the PDF passes besides the plan: colours, second decks, hazardous and round items. */
function cargoOf(model: PackModel) {
  const colors: Record<string, string> = {};
  for (const it of model.items) if (it.color) colors[it.id] = it.color;
  return { colors, cargo: cargoFactsOf(model) };
}

const files = readdirSync(EXAMPLES)
  .filter((f) => f.endsWith('.json'))
  .sort();

t.test(
  "every example's PDF: expected pages, each with content, kept as PNGs",
  { skip: hasPoppler ? false : 'pdftoppm / pdftotext (poppler-utils) not installed' },
  async (t) => {
    t.ok(files.length >= 5, `${files.length} examples`);
    mkdirSync(ARTIFACTS, { recursive: true });
    const work = mkdtempSync(join(tmpdir(), 'example-pdfs-'));
    t.teardown(() => rmSync(work, { recursive: true, force: true }));
    for (const file of files) {
      const name = file.replace(/\.json$/, '');
      const { model } = modelOf(JSON.parse(readFileSync(new URL(file, EXAMPLES), 'utf8')));
      const budgetMs = Math.min(model.budgetMs, 1500);
      const plan: Plan = search({
        model: { ...model, budgetMs },
        worker: 0,
        stride: 1,
        deadline: Date.now() + budgetMs + 500,
      }).plans[0]!.plan;
      const { colors, cargo } = cargoOf(model);
      const start = performance.now();
      const pdf = await renderPlanPdf({
        jobId: 'job_example',
        reference: name,
        createdAt: '2026-11-22T10:00:00Z',
        plan,
        colors,
        cargo,
      });
      const ms = performance.now() - start;
      const pdfFile = join(work, `${name}.pdf`);
      writeFileSync(pdfFile, pdf);
      writeFileSync(new URL(`${name}.pdf`, ARTIFACTS), pdf);
      for (const old of readdirSync(ARTIFACTS).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png')))
        rmSync(new URL(old, ARTIFACTS));
      execFileSync('pdftoppm', ['-png', '-r', '50', pdfFile, new URL(name, ARTIFACTS).pathname]);
      execFileSync('pdftoppm', ['-gray', '-r', '50', pdfFile, join(work, name)]);
      const pngs = readdirSync(ARTIFACTS).filter((f) => f.startsWith(`${name}-`) && f.endsWith('.png'));
      const pgms = readdirSync(work)
        .filter((f) => f.startsWith(`${name}-`) && f.endsWith('.pgm'))
        .sort();

      // Each page's role from its text: the summary, a vehicle's overview, its instructions, the appendix.
      const pages = pgms.length;
      const text = (n: number) =>
        execFileSync('pdftotext', ['-layout', '-f', String(n), '-l', String(n), pdfFile, '-'], { encoding: 'utf8' });
      const texts = Array.from({ length: pages }, (_, i) => text(i + 1));
      // The summary runs up to the first vehicle's overview page.
      const summaryPages = texts.findIndex((s) => /Vehicle 1 of \d+ · /.test(s));
      let expected = summaryPages;
      for (const v of plan.vehicles) {
        const title = `Vehicle ${v.index + 1} of ${plan.vehicles.length}`;
        const instructionPages = texts.filter((s) => new RegExp(`${title} · .* · loading instructions`).test(s));
        const appendixPages = texts.filter((s) => new RegExp(`Appendix: unit list · ${title} ·`).test(s));
        const instructions = loadingInstructions(v.placements, v.width, cargo.deckHeights[v.vehicle_id] ?? null);
        const pictures = instructionPages.reduce((n, s) => n + (s.match(/After step \d+/g) ?? []).length, 0);
        const headlines = instructionPages.reduce((n, s) => n + (s.match(/\b\d+\. +Steps? \d+/g) ?? []).length, 0);
        t.equal(
          pictures,
          Math.min(MAX_PICTURES, instructions.length),
          `${name}, ${title}: one picture per block, at most ${MAX_PICTURES}`,
        );
        t.equal(pictures, pictureStages(instructions).length);
        t.equal(headlines, instructions.length, `${name}, ${title}: all ${instructions.length} instructions printed`);
        t.equal(appendixPages.length, stepPageCount(v.placements.length), `${name}, ${title}: unit-list pages`);
        t.ok(instructionPages.length >= 1, `${name}, ${title}: ${instructionPages.length} instruction pages`);
        expected += 1 + instructionPages.length + appendixPages.length;
      }
      t.ok(summaryPages >= 1, `${name}: ${summaryPages} summary page(s)`);
      t.equal(pages, expected, `${name}: ${pages} pages = summary + per vehicle overview and instructions + appendix`);
      t.equal(pngs.length, pages, `${name}: a PNG per page in test-artifacts/pdf/`);
      t.match(texts[pages - 1]!, new RegExp(`Page ${pages} of ${pages}`));
      const blank = pgms.map((f, i) => [i + 1, bodyInk(join(work, f))] as const).filter(([, ink]) => ink < 0.003);
      t.same(blank, [], `${name}: every page has content above the footer`);
      t.comment(
        `${name}: ${plan.vehicles.reduce((s, v) => s + v.placements.length, 0)} units, ${pages} pages, ${ms.toFixed(0)} ms, ${(pdf.length / 1024).toFixed(0)} KiB`,
      );
    }
  },
);
