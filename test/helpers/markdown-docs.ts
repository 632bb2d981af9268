/**
 * Reading the repository's Markdown (README.md and docs/*.md) the way GitHub renders it, for the
 * tests that keep the guides honest: their links, their anchors, the source paths they name and
 * the sections other tests parse (the distributed profile's tables, the environment variables).
 */
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';

/** The repository's root folder (absolute, no trailing slash). */
export const REPO_ROOT = fileURLToPath(new URL('../..', import.meta.url)).replace(/\/$/, '');

/** The guides: README.md and every docs/*.md, as paths relative to the repository root. */
export function guideFiles(): string[] {
  const docs = readdirSync(join(REPO_ROOT, 'docs'))
    .filter((f) => f.endsWith('.md'))
    .sort()
    .map((f) => `docs/${f}`);
  return ['README.md', ...docs];
}

/** The text of a file of the repository (path relative to the root), UTF-8. */
export function readRepoFile(path: string): string {
  return readFileSync(join(REPO_ROOT, path), 'utf8');
}

/** The text without fenced code blocks (their lines become empty, so line numbers stay). */
export function withoutCodeBlocks(markdown: string): string {
  let fenced = false;
  return markdown
    .split('\n')
    .map((line) => {
      if (/^\s*```/.test(line)) {
        fenced = !fenced;
        return '';
      }
      return fenced ? '' : line;
    })
    .join('\n');
}

/** A link or picture of a Markdown text: its target as written and the 1-based line it is on. */
export interface MarkdownLink {
  target: string;
  line: number;
}

/**
 * The inline links and pictures (`[text](target)`, `![alt](target)`) outside code blocks and code
 * spans. Reference-style links are not used in this repository's guides.
 */
export function markdownLinks(markdown: string): MarkdownLink[] {
  const links: MarkdownLink[] = [];
  withoutCodeBlocks(markdown)
    .split('\n')
    .forEach((raw, i) => {
      const line = raw.replace(/`[^`]*`/g, '``');
      for (const m of line.matchAll(/\]\(([^)\s]+)(?:\s+"[^"]*")?\)/g)) links.push({ target: m[1]!, line: i + 1 });
    });
  return links;
}

/**
 * The anchors of a Markdown text's headings as GitHub makes them: the heading's text without
 * inline code marks, emphasis and link targets, lower-cased, punctuation other than `-` and `_`
 * dropped, spaces made `-`; a repeated anchor gets `-1`, `-2`…
 */
export function headingAnchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const anchors = new Set<string>();
  for (const line of withoutCodeBlocks(markdown).split('\n')) {
    const m = /^#{1,6}\s+(.*?)\s*#*\s*$/.exec(line);
    if (!m) continue;
    const text = m[1]!
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .replace(/[`*]/g, '')
      .toLowerCase();
    const slug = text.replace(/[^\p{L}\p{N}\s_-]/gu, '').replace(/\s/g, '-');
    const count = seen.get(slug) ?? 0;
    seen.set(slug, count + 1);
    anchors.add(count === 0 ? slug : `${slug}-${count}`);
  }
  return anchors;
}

/** The text of one `## …` section (up to the next `## ` heading), without its heading line; null when absent. */
export function markdownSection(markdown: string, heading: string): string | null {
  const lines = markdown.split('\n');
  const start = lines.findIndex((l) => l.trim() === `## ${heading}`);
  if (start < 0) return null;
  let end = lines.findIndex((l, i) => i > start && /^## /.test(l));
  if (end < 0) end = lines.length;
  return lines.slice(start + 1, end).join('\n');
}
