/**
 * `npm run bench:kinds`: the real sequence, class and entity-relationship
 * diagrams of bench/quality/kinds/ (copied from public projects' docs,
 * sources.json names each one's repository, path, commit and licence) drawn
 * three ways — by Drawbridge (Mermaid's own parser, then its layout), by
 * Mermaid's renderer and by Excalidraw's Mermaid converter (both in headless
 * Chromium, bench/quality/kinds-peers.ts) — and measured with the same code:
 * - crossings: pairs of message or relation lines that cross, away from
 *   their ends (kindsCrossings);
 * - lines through boxes: a line passing through a participant's, class's or
 *   entity's box it does not start or end at (linesThroughBoxes);
 * - area: the drawing's bounding box (Mermaid's: its SVG's viewBox);
 * - for the two drawings made of editor elements (Drawbridge's and the
 *   converter's), every lint issue: overlaps, labels over lines or shapes,
 *   edges through shapes, clipped labels.
 * Then the time to lay out a 100-message sequence. The gallery (each
 * diagram's three pictures side by side, and an index) goes to
 * .tmp/gallery-kinds/ (GALLERY=0: none). ONLY=name-part: those diagrams only.
 *
 * Targets: on the corpus, 0 overlaps and 0 lines through a box or a label;
 * crossings ≤ Mermaid's own drawing's; area ≤ 1.2× Mermaid's; a 100-message
 * sequence laid out in under 200 ms.
 */
import fs from 'node:fs';
import path from 'node:path';
import { isCatalogIcon } from '../../src/domain/icons/catalog.ts';
import { layoutGraph } from '../../src/domain/layout/layout.ts';
import { lintScene } from '../../src/domain/lint/lint.ts';
import { importMermaid } from '../../src/domain/source/mermaid.ts';
import { checkAnySpec, sceneOfSpec } from '../../src/domain/spec/any-spec.ts';
import { startKindsPeers } from './kinds-peers.ts';
import { boundsOf } from './measure.ts';
import { startPngRenderer } from './render-png.ts';

type Element = Record<string, any>;
type Point = [number, number];
type Box = { x: number; y: number; width: number; height: number };

export const KINDS_DIRECTORY = path.join(import.meta.dirname, 'kinds');
const GALLERY = path.join(import.meta.dirname, '../../.tmp/gallery-kinds');
const AREA_TARGET = 1.2;

export interface KindsEntry {
  name: string;
  kind: 'sequence' | 'class' | 'er';
  text: string;
  source: string;
}

/** The corpus, as sources.json lists it. */
export function loadKindsCorpus(): KindsEntry[] {
  const listed = JSON.parse(fs.readFileSync(path.join(KINDS_DIRECTORY, 'sources.json'), 'utf8')) as Array<{ file: string; kind: KindsEntry['kind']; url: string }>;
  return listed.map((s) => ({ name: s.file.replace(/\.mmd$/, ''), kind: s.kind, text: fs.readFileSync(path.join(KINDS_DIRECTORY, s.file), 'utf8'), source: s.url }));
}

/** Points where two segments cross (not where they only touch), or null. */
function crossing(a: Point, b: Point, c: Point, d: Point): Point | null {
  const r = [b[0] - a[0], b[1] - a[1]];
  const s = [d[0] - c[0], d[1] - c[1]];
  const denominator = r[0]! * s[1]! - r[1]! * s[0]!;
  if (Math.abs(denominator) < 1e-9) return null;
  const t = ((c[0] - a[0]) * s[1]! - (c[1] - a[1]) * s[0]!) / denominator;
  const u = ((c[0] - a[0]) * r[1]! - (c[1] - a[1]) * r[0]!) / denominator;
  if (t <= 0 || t >= 1 || u <= 0 || u >= 1) return null;
  return [a[0] + t * r[0]!, a[1] + t * r[1]!];
}

const near = (p: Point, q: Point, distance: number) => Math.hypot(p[0] - q[0], p[1] - q[1]) < distance;

/** Pairs of lines that cross somewhere away from either line's ends (lines meeting at a shared box's side are not a crossing). */
export function kindsCrossings(lines: Point[][]): number {
  let count = 0;
  for (let i = 0; i < lines.length; i++) {
    for (let j = i + 1; j < lines.length; j++) {
      const [p, q] = [lines[i]!, lines[j]!];
      const ends = [p[0]!, p.at(-1)!, q[0]!, q.at(-1)!];
      let crossed = false;
      for (let k = 0; k + 1 < p.length && !crossed; k++) {
        for (let m = 0; m + 1 < q.length && !crossed; m++) {
          const x = crossing(p[k]!, p[k + 1]!, q[m]!, q[m + 1]!);
          if (x && !ends.some((e) => near(e, x, 6))) crossed = true;
        }
      }
      if (crossed) count++;
    }
  }
  return count;
}

/** Lines passing through a box (shrunk by 2 px) that neither of their ends is at (within 14 px). */
export function linesThroughBoxes(lines: Point[][], boxes: Box[]): number {
  let count = 0;
  const inside = (p: Point, b: Box) => p[0] > b.x + 2 && p[0] < b.x + b.width - 2 && p[1] > b.y + 2 && p[1] < b.y + b.height - 2;
  const distance = (p: Point, b: Box) => Math.hypot(Math.max(b.x - p[0], 0, p[0] - b.x - b.width), Math.max(b.y - p[1], 0, p[1] - b.y - b.height));
  for (const line of lines) {
    for (const box of boxes) {
      if (distance(line[0]!, box) < 14 || distance(line.at(-1)!, box) < 14) continue;
      // Sample each segment: a line through a box has a point inside it.
      let through = false;
      for (let k = 0; k + 1 < line.length && !through; k++) {
        const [a, b] = [line[k]!, line[k + 1]!];
        const steps = Math.max(1, Math.ceil(Math.hypot(b[0] - a[0], b[1] - a[1]) / 4));
        for (let n = 0; n <= steps && !through; n++) through = inside([a[0] + ((b[0] - a[0]) * n) / steps, a[1] + ((b[1] - a[1]) * n) / steps], box);
      }
      if (through) count++;
    }
  }
  return count;
}

const linesOf = (elements: Element[], roles: (e: Element) => boolean): Point[][] =>
  elements.filter((e) => e.type === 'arrow' && roles(e)).map((e) => (e.points as Point[]).map(([x, y]): Point => [e.x + x, e.y + y]));
const boxesOf = (elements: Element[], roles: (e: Element) => boolean): Box[] => elements.filter(roles).map((e) => ({ x: e.x, y: e.y, width: e.width, height: e.height }));

/** Drawbridge's own lines and boxes: messages and relations; participants' boxes, classes, entities. */
const OURS = {
  line: (e: Element) => e.customData?.sequence === 'message' || e.customData?.structure === 'relation',
  box: (e: Element) => ['participant', 'foot'].includes(e.customData?.sequence) || ['class', 'entity'].includes(e.customData?.structure),
};
/** The converter's: every arrow; every rectangle with a label or an outline of a box (not a lifeline or a note line). */
const CONVERTER = {
  line: (e: Element) => e.type === 'arrow',
  box: (e: Element) => e.type === 'rectangle' && e.width > 20 && e.height > 20,
};

interface Measured {
  crossings: number;
  throughBoxes: number;
  area: number;
  width: number;
  height: number;
  lint?: Map<string, number>;
}

function measureElements(elements: Element[], roles: typeof OURS): Measured {
  const { width, height } = boundsOf(elements);
  const lines = linesOf(elements, roles.line);
  const lint = new Map<string, number>();
  for (const issue of lintScene(elements, { maxIssuesPerKind: Number.POSITIVE_INFINITY })) lint.set(issue.kind, (lint.get(issue.kind) ?? 0) + 1);
  return { crossings: kindsCrossings(lines), throughBoxes: linesThroughBoxes(lines, boxesOf(elements, roles.box)), area: width * height, width, height, lint };
}

const OVERLAP_KINDS = ['overlap', 'label_overlap', 'text_over_icon', 'clipped_label', 'edge_through_shape', 'edges_overlap'];
const defects = (m: Measured | null) => (m?.lint ? OVERLAP_KINDS.reduce((sum, k) => sum + (m.lint!.get(k) ?? 0), 0) : null);

if (import.meta.filename === process.argv[1]) {
  const only = process.env.ONLY;
  const entries = loadKindsCorpus().filter((e) => !only || e.name.includes(only));
  const gallery = process.env.GALLERY !== '0';
  if (gallery) fs.mkdirSync(GALLERY, { recursive: true });
  const peers = await startKindsPeers();
  const renderer = gallery ? startPngRenderer() : null;
  const rows: Array<{ entry: KindsEntry; ms: number; warnings: number; ours: Measured; mermaid: Measured; converter: Measured | null }> = [];
  try {
    for (const entry of entries) {
      const start = performance.now();
      const imported = await importMermaid(entry.text);
      const { problems, spec } = checkAnySpec(imported.title ? { ...imported.spec, caption: imported.title } : imported.spec, { isIcon: isCatalogIcon });
      if (!spec) throw new Error(`${entry.name}: ${problems[0]?.message}`);
      const elements = sceneOfSpec(spec, { updated: 1, layout: layoutGraph }) as Element[];
      const ms = performance.now() - start;
      const ours = measureElements(elements, OURS);
      const drawing = await peers.mermaid(entry.text, 1600);
      const mermaid: Measured = { crossings: kindsCrossings(drawing.lines), throughBoxes: linesThroughBoxes(drawing.lines, drawing.boxes), area: drawing.width * drawing.height, width: drawing.width, height: drawing.height };
      const converted = await peers.excalidraw(entry.text).catch(() => null);
      const converter = converted ? measureElements(converted as Element[], CONVERTER) : null;
      rows.push({ entry, ms, warnings: imported.warnings.length, ours, mermaid, converter });
      if (renderer) {
        fs.writeFileSync(path.join(GALLERY, `${entry.name}-drawbridge.png`), await renderer.png(elements));
        fs.writeFileSync(path.join(GALLERY, `${entry.name}-mermaid.png`), drawing.png);
        if (converted) fs.writeFileSync(path.join(GALLERY, `${entry.name}-converter.png`), await renderer.png(converted).catch(() => Buffer.alloc(0)));
      }
      process.stderr.write('.');
    }
  } finally {
    await peers.close();
    await renderer?.close();
  }
  process.stderr.write('\n');

  const lines: string[] = [];
  const out = (line = '') => {
    lines.push(line);
    console.log(line);
  };
  const fixed = (v: number | null, digits = 0) => (v === null ? '—' : v.toFixed(digits));
  for (const kind of ['sequence', 'class', 'er'] as const) {
    const of = rows.filter((r) => r.entry.kind === kind);
    if (of.length === 0) continue;
    out(`## ${kind} (${of.length} diagrams)`);
    out('');
    out('| diagram | ms | defects (Drawbridge / converter) | crossings (Drawbridge / Mermaid / converter) | through boxes (D / M / C) | area vs Mermaid (D / C) |');
    out('|---|---|---|---|---|---|');
    for (const r of of) {
      out(`| ${r.entry.name} | ${r.ms.toFixed(0)} | ${defects(r.ours)} / ${fixed(defects(r.converter))} | ${r.ours.crossings} / ${r.mermaid.crossings} / ${fixed(r.converter?.crossings ?? null)} | ${r.ours.throughBoxes} / ${r.mermaid.throughBoxes} / ${fixed(r.converter?.throughBoxes ?? null)} | ${(r.ours.area / r.mermaid.area).toFixed(2)}× / ${r.converter ? (r.converter.area / r.mermaid.area).toFixed(2) + '×' : '—'} |`);
    }
    const sum = (f: (r: (typeof of)[number]) => number | null) => of.reduce((s, r) => s + (f(r) ?? 0), 0);
    const median = (values: number[]) => [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!;
    out(`| **total** | | ${sum((r) => defects(r.ours))} / ${sum((r) => defects(r.converter))} | ${sum((r) => r.ours.crossings)} / ${sum((r) => r.mermaid.crossings)} / ${sum((r) => r.converter?.crossings ?? null)} | ${sum((r) => r.ours.throughBoxes)} / ${sum((r) => r.mermaid.throughBoxes)} / ${sum((r) => r.converter?.throughBoxes ?? null)} | median ${median(of.map((r) => r.ours.area / r.mermaid.area)).toFixed(2)}× |`);
    const lint = new Map<string, number>();
    for (const r of of) for (const [k, n] of r.ours.lint ?? []) lint.set(k, (lint.get(k) ?? 0) + n);
    out(`Drawbridge lint issues by kind: ${lint.size === 0 ? 'none' : [...lint].map(([k, n]) => `${k} ${n}`).join(', ')}`);
    out('');
  }

  // A 100-message sequence: laid out and drawn, median of 11.
  const ids = ['browser', 'gateway', 'auth', 'orders', 'db', 'cache', 'queue'];
  const steps = Array.from({ length: 100 }, (_, i) => `${ids[i % ids.length]} ->> ${ids[(i * 3 + 1) % ids.length]} : step ${i + 1} of the checkout`);
  const long = checkAnySpec({ kind: 'sequence', autonumber: true, steps }, { isIcon: isCatalogIcon }).spec!;
  const times: number[] = [];
  for (let i = 0; i < 11; i++) {
    const t = performance.now();
    sceneOfSpec(long, { updated: 1, layout: layoutGraph });
    times.push(performance.now() - t);
  }
  times.sort((a, b) => a - b);
  out(`100-message sequence laid out and drawn: median ${times[5]!.toFixed(1)} ms (target < 200 ms)`);

  const all = rows;
  const overlaps = all.reduce((s, r) => s + (defects(r.ours) ?? 0), 0);
  const through = all.reduce((s, r) => s + r.ours.throughBoxes, 0);
  const crossingsOk = all.filter((r) => r.ours.crossings <= r.mermaid.crossings).length;
  const areaOk = all.filter((r) => r.ours.area <= AREA_TARGET * r.mermaid.area).length;
  out('');
  out(`targets: 0 overlaps or lines through labels or shapes: ${overlaps} (${overlaps === 0 ? 'met' : 'NOT met'}); 0 lines through boxes: ${through} (${through === 0 ? 'met' : 'NOT met'}); crossings ≤ Mermaid's: ${crossingsOk}/${all.length} diagrams; area ≤ ${AREA_TARGET}× Mermaid's: ${areaOk}/${all.length} diagrams; 100 messages < 200 ms: ${times[5]! < 200 ? 'met' : 'NOT met'}`);
  if (gallery) {
    const index = [
      '# Sequence, class and ER diagrams: Drawbridge, Mermaid, Excalidraw\'s converter',
      '',
      ...rows.flatMap((r) => [
        `## ${r.entry.name} (${r.entry.kind})`,
        '',
        `Source: ${r.entry.source}`,
        '',
        '| Drawbridge | Mermaid | Excalidraw\'s converter |',
        '|---|---|---|',
        `| ![](${r.entry.name}-drawbridge.png) | ![](${r.entry.name}-mermaid.png) | ${r.converter ? `![](${r.entry.name}-converter.png)` : 'an image, no elements'} |`,
        '',
      ]),
      '',
      ...lines,
    ];
    fs.writeFileSync(path.join(GALLERY, 'index.md'), `${index.join('\n')}\n`);
    console.log(`\ngallery: ${path.relative(process.cwd(), GALLERY)}/index.md`);
  }
}
