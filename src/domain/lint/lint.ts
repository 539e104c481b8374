import { getBoundTextMaxHeight, getBoundTextMaxWidth, isKnownFontFamily, measureText } from '../text/metrics.ts';
import { piledArrowheads, smallArrowheads } from './arrowheads.ts';
import { arrowsThroughLabels, misplacedArrowLabels } from './arrow-labels.ts';
import { brokenWords } from './broken-words.ts';
import { contrastRatio, parseColor, type Rgb } from './color.ts';
import { edgesThroughContainerLabels } from './container-labels.ts';
import { slackContainers } from './container-slack.ts';
import { edgesThroughShapes } from './edge-through-shape.ts';
import { closeEdges, pairKey } from './edges-close.ts';
import { overlappingEdges } from './edges-overlap.ts';
import { lateFlowStart } from './flow-start.ts';
import { isLayoutKind, LINT_KINDS, type LintIssue, type LintKind } from './issue.ts';
import { WorkBudget, WorkExhausted } from './grid.ts';
import { labelsNearOutline } from './label-outline.ts';
import { sequenceRole } from '../sequence/types.ts';
import { buildSceneModel } from './scene-model.ts';
import { hiddenSelfLoops } from './self-loops.ts';
import { overlappingTexts } from './text-overlap.ts';
import { MAX_ISSUES_PER_KIND } from './thresholds.ts';

export { isLayoutKind, LINT_KINDS, type LintIssue, type LintKind };

type Element = Record<string, any>;

const SHAPES = new Set(['rectangle', 'ellipse', 'diamond', 'image', 'frame', 'magicframe', 'embeddable', 'iframe']);
const LINEAR = new Set(['arrow', 'line']);
const WHITE: Rgb = [255, 255, 255];
/** WCAG's threshold for large text and graphics. */
const MIN_CONTRAST = 3;
/** Rounding slack, in pixels, before a label counts as clipped. */
const SLACK = 0.5;

interface Box {
  x1: number;
  y1: number;
  x2: number;
  y2: number;
}

function boxOf(e: Element): Box {
  if (LINEAR.has(e.type) && Array.isArray(e.points) && e.points.length > 0) {
    const xs = e.points.map((p: number[]) => e.x + (p[0] ?? 0));
    const ys = e.points.map((p: number[]) => e.y + (p[1] ?? 0));
    return { x1: Math.min(...xs), y1: Math.min(...ys), x2: Math.max(...xs), y2: Math.max(...ys) };
  }
  const w = Number(e.width) || 0;
  const h = Number(e.height) || 0;
  return { x1: Math.min(e.x, e.x + w), y1: Math.min(e.y, e.y + h), x2: Math.max(e.x, e.x + w), y2: Math.max(e.y, e.y + h) };
}

const contains = (outer: Box, inner: Box) => outer.x1 <= inner.x1 && outer.y1 <= inner.y1 && outer.x2 >= inner.x2 && outer.y2 >= inner.y2;
const overlapArea = (a: Box, b: Box) => Math.max(0, Math.min(a.x2, b.x2) - Math.max(a.x1, b.x1)) * Math.max(0, Math.min(a.y2, b.y2) - Math.max(a.y1, b.y1));
const shareGroup = (a: Element, b: Element) => Array.isArray(a.groupIds) && Array.isArray(b.groupIds) && a.groupIds.some((g: string) => b.groupIds.includes(g));

/** Pairs of shapes a sweep examines at most: past this, overlaps are no longer counted (the report says it is incomplete). */
const MAX_OVERLAP_PAIRS = 4_000_000;

/**
 * Shapes whose boxes intersect without one holding the other (nesting is a
 * container, not an overlap): a sweep along x, listing the first `limit` pairs
 * and counting the rest without building them.
 */
function overlaps(shapes: Element[], limit: number): { issues: LintIssue[]; count: number; complete: boolean } {
  const issues: LintIssue[] = [];
  let count = 0;
  let examined = 0;
  const items = shapes.map((e) => ({ e, box: boxOf(e) })).sort((a, b) => a.box.x1 - b.box.x1);
  for (let i = 0; i < items.length; i++) {
    const a = items[i]!;
    for (let j = i + 1; j < items.length && items[j]!.box.x1 < a.box.x2; j++) {
      if (++examined > MAX_OVERLAP_PAIRS) return { issues, count, complete: false };
      const b = items[j]!;
      if (overlapArea(a.box, b.box) <= 0 || contains(a.box, b.box) || contains(b.box, a.box) || shareGroup(a.e, b.e)) continue;
      if (count++ < limit) issues.push({ kind: 'overlap', elementIds: [a.e.id, b.e.id], message: `${a.e.type} "${a.e.id}" overlaps ${b.e.type} "${b.e.id}"` });
    }
  }
  return { issues, count, complete: true };
}

/** Bound text wider or taller than the area its container gives it, as measured with the editor's font. */
function clippedLabels(texts: Element[], byId: Map<string, Element>): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const text of texts) {
    const container = text.containerId ? byId.get(text.containerId) : undefined;
    if (!container || LINEAR.has(container.type) || typeof text.text !== 'string' || !isKnownFontFamily(Number(text.fontFamily))) continue;
    const measured = measureText(text.text, Number(text.fontSize) || 20, Number(text.fontFamily));
    const maxWidth = getBoundTextMaxWidth(container.type, container.width);
    const maxHeight = getBoundTextMaxHeight(container.type, container.height);
    if (measured.width > maxWidth + SLACK || measured.height > maxHeight + SLACK) {
      issues.push({
        kind: 'clipped_label',
        elementIds: [text.id, container.id],
        message: `label "${text.id}" needs ${Math.ceil(measured.width)}×${Math.ceil(measured.height)} but ${container.type} "${container.id}" leaves ${Math.floor(maxWidth)}×${Math.floor(maxHeight)}`,
      });
    }
  }
  return issues;
}

function arrowBindings(arrows: Element[], byId: Map<string, Element>): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const arrow of arrows) {
    for (const end of ['start', 'end'] as const) {
      const binding = arrow[`${end}Binding`];
      if (!binding) {
        issues.push({ kind: 'unbound_arrow', elementIds: [arrow.id], message: `arrow "${arrow.id}" is not bound at its ${end}` });
        continue;
      }
      const target = byId.get(binding.elementId);
      if (!target) {
        issues.push({ kind: 'dangling_binding', elementIds: [arrow.id], message: `arrow "${arrow.id}" is bound at its ${end} to "${binding.elementId}", which does not exist` });
      } else if (!Array.isArray(target.boundElements) || !target.boundElements.some((b: Element) => b?.id === arrow.id)) {
        issues.push({ kind: 'dangling_binding', elementIds: [arrow.id, target.id], message: `arrow "${arrow.id}" is bound to "${target.id}", whose boundElements do not point back` });
      }
    }
  }
  return issues;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = sorted.length >> 1;
  return sorted.length % 2 ? sorted[mid]! : (sorted[mid - 1]! + sorted[mid]!) / 2;
}

/**
 * Elements far from the bulk of the drawing: their distance from the median
 * centre exceeds five times the median distance (and at least 2000 px), a test
 * that a few strays cannot skew.
 */
function outliers(elements: Element[]): LintIssue[] {
  if (elements.length < 3) return [];
  const centres = elements.map((e) => {
    const box = boxOf(e);
    return { e, x: (box.x1 + box.x2) / 2, y: (box.y1 + box.y2) / 2 };
  });
  const mx = median(centres.map((c) => c.x));
  const my = median(centres.map((c) => c.y));
  const distances = centres.map((c) => Math.hypot(c.x - mx, c.y - my));
  const reach = Math.max(2000, 5 * median(distances));
  return centres
    .filter((_, i) => distances[i]! > reach)
    .map(({ e }) => ({ kind: 'outlier' as const, elementIds: [e.id], message: `${e.type} "${e.id}" lies far outside the rest of the diagram` }));
}

/**
 * Text too close in colour to what lies behind it: its container's fill; for a
 * container that is itself clear, the fill of the outline drawn with it (a
 * cylinder's or a document's body, a closed line in the container's group);
 * else the background.
 */
function lowContrast(texts: Element[], byId: Map<string, Element>, background: Rgb, elements: Element[]): LintIssue[] {
  const issues: LintIssue[] = [];
  let filledLines: Map<string, Element> | null = null;
  const outlineFill = (container: Element): Element | undefined => {
    filledLines ??= new Map(
      elements.filter((e) => e.type === 'line' && e.backgroundColor !== 'transparent' && Array.isArray(e.groupIds) && e.groupIds.length > 0).map((e) => [e.groupIds[0] as string, e]),
    );
    const group = Array.isArray(container.groupIds) ? (container.groupIds[0] as string | undefined) : undefined;
    return group === undefined ? undefined : filledLines.get(group);
  };
  for (const text of texts) {
    const ink = parseColor(text.strokeColor);
    if (!ink) continue;
    const container = text.containerId ? byId.get(text.containerId) : undefined;
    const shape = container && !LINEAR.has(container.type) ? container : undefined;
    const filled = shape && shape.backgroundColor !== 'transparent' ? shape : shape ? outlineFill(shape) : undefined;
    const fill = filled ? parseColor(filled.backgroundColor) : null;
    const behind = fill ?? background;
    const ratio = contrastRatio(ink, behind);
    if (ratio < MIN_CONTRAST) {
      issues.push({
        kind: 'low_contrast',
        elementIds: shape && fill ? [text.id, shape.id] : [text.id],
        message: `text "${text.id}" has a contrast ratio of ${ratio.toFixed(2)} against its ${fill ? 'container fill' : 'background'} (at least ${MIN_CONTRAST} is readable)`,
      });
    }
  }
  return issues;
}

/**
 * Work the layout checks may spend on candidate pairs (items a grid query looks
 * at, 50 for each it finds): a realistic 1,000-node diagram spends well under a
 * tenth of it; a pile of thousands of shapes on one spot stops here.
 */
const LAYOUT_WORK = 10_000_000;

/**
 * What a person sees wrong in the drawing: routes through shapes and labels,
 * lines on lines, labels on things or adrift. Checks that run out of work are
 * left out (complete: false); those done before stand.
 */
function layoutIssues(elements: Element[], clipped: ReadonlySet<string>): { issues: LintIssue[]; complete: boolean } {
  const issues: LintIssue[] = [];
  try {
    const model = buildSceneModel(elements, new WorkBudget(LAYOUT_WORK));
    const routes = edgesThroughShapes(model);
    issues.push(...routes.issues);
    const overlapping = overlappingEdges(model);
    issues.push(...overlapping);
    issues.push(...edgesThroughContainerLabels(model));
    issues.push(...arrowsThroughLabels(model));
    const arrowLabels = misplacedArrowLabels(model);
    issues.push(...arrowLabels.crowded, ...arrowLabels.detached);
    const texts = overlappingTexts(model, routes.reported);
    issues.push(...texts.labels, ...texts.icons);
    issues.push(...brokenWords(model));
    issues.push(...closeEdges(model, new Set(overlapping.map((issue) => pairKey(issue.elementIds[0]!, issue.elementIds[1]!)))));
    issues.push(...piledArrowheads(model));
    issues.push(...smallArrowheads(model));
    issues.push(...slackContainers(model));
    issues.push(...hiddenSelfLoops(model));
    issues.push(...labelsNearOutline(model, clipped));
    // Where a flow starts is a flowchart's question: a class, ER or sequence diagram has no flow to start.
    if (!elements.some((e) => e.customData?.structure !== undefined || e.customData?.sequence !== undefined)) issues.push(...lateFlowStart(model));
  } catch (error) {
    if (error instanceof WorkExhausted) return { issues, complete: false };
    throw error;
  }
  return { issues, complete: true };
}

export interface LintReport {
  /** At most `maxIssuesPerKind` issues of each kind, in kind order. */
  issues: LintIssue[];
  /** How many issues of each kind were found, listed or not (a kind with none is absent). */
  counts: Partial<Record<LintKind, number>>;
  /** False when the scene was too large to check every pair (shapes piled on one spot): the counts are then lower bounds. */
  complete: boolean;
}

/**
 * Checks a scene for what makes a diagram hard to read or broken in the editor:
 * overlapping shapes, clipped labels, arrows not bound (or bound to nothing),
 * stray elements far from the rest, low-contrast text, and the layout defects a
 * person sees (see layoutIssues). Lists at most `maxIssuesPerKind` issues of
 * each kind and counts them all. Pure; about linear in the number of elements,
 * its work bounded however the shapes pile up.
 */
export function lintReport(rawElements: unknown[], options: { background?: string; maxIssuesPerKind?: number } = {}): LintReport {
  const elements = rawElements.filter((e): e is Element => typeof e === 'object' && e !== null && !(e as Element).isDeleted);
  const byId = new Map(elements.map((e) => [e.id as string, e]));
  const texts = elements.filter((e) => e.type === 'text');
  const arrows = elements.filter((e) => e.type === 'arrow');
  const background = parseColor(options.background) ?? WHITE;
  const limit = options.maxIssuesPerKind ?? MAX_ISSUES_PER_KIND;
  const overlap = overlaps(
    // A sequence diagram's frames are backdrops, its lifelines lines and its activation bars part of them: none overlaps what it holds or meets.
    elements.filter((e) => SHAPES.has(e.type) && !['frame', 'lifeline', 'activation'].includes(sequenceRole(e) ?? '')),
    limit,
  );
  const clipped = clippedLabels(texts, byId);
  const layout = layoutIssues(
    elements,
    new Set(clipped.map((issue) => issue.elementIds[0]!)),
  );
  const rest = [...clipped, ...arrowBindings(arrows, byId), ...outliers(elements), ...lowContrast(texts, byId, background, elements), ...layout.issues];
  const counts: Partial<Record<LintKind, number>> = {};
  if (overlap.count > 0) counts.overlap = overlap.count;
  for (const issue of rest) counts[issue.kind] = (counts[issue.kind] ?? 0) + 1;
  const issues = [...overlap.issues, ...rest];
  return { issues: LINT_KINDS.flatMap((kind) => issues.filter((issue) => issue.kind === kind).slice(0, limit)), counts, complete: overlap.complete && layout.complete };
}

/** The issues lintReport lists. */
export function lintScene(rawElements: unknown[], options: { background?: string; maxIssuesPerKind?: number } = {}): LintIssue[] {
  return lintReport(rawElements, options).issues;
}
