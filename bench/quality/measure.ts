/**
 * What the quality benchmark and the gallery measure on a drawn scene, by the
 * same code whichever engine laid it out: crossings (the layout metrics over
 * the scene read back as boxes and routes), every lint issue by kind, arrows
 * drawn against the flow, and the drawing's bounding box.
 */
import { countEdgeCrossings } from '../../src/domain/layout/metrics.ts';
import type { Direction } from '../../src/domain/layout/types.ts';
import { isLayoutKind, LINT_KINDS, lintScene } from '../../src/domain/lint/lint.ts';
import { asLayout } from '../scene-as-layout.ts';

type Element = Record<string, any>;

/** An arrow whose end node's centre lies further upstream than this (px) runs against the flow. */
export const AGAINST_FLOW_SLACK = 8;

export interface SceneMeasures {
  crossings: number;
  /** Lint issues by kind; kinds that did not occur are absent. */
  lint: Map<string, number>;
  /** Ids of the arrows whose end lies upstream of their start. */
  againstFlow: string[];
  width: number;
  height: number;
}

/** `flows`: the direction each arrow is drawn in where it is not the drawing's (inside a container with a direction of its own). */
export function measureScene(elements: Element[], direction: Direction, flows: ReadonlyMap<string, Direction> = new Map()): SceneMeasures {
  const { input, result } = asLayout(elements);
  const lint = new Map<string, number>();
  // Every issue counts here: the lint endpoint's cap per kind keeps responses short, not figures honest.
  for (const issue of lintScene(elements, { maxIssuesPerKind: Number.POSITIVE_INFINITY })) lint.set(issue.kind, (lint.get(issue.kind) ?? 0) + 1);
  const { width, height } = boundsOf(elements);
  return { crossings: countEdgeCrossings(input, result), lint, againstFlow: againstFlow(elements, direction, flows), width, height };
}

/**
 * The lint kinds a table shows, in the catalogue's order: every kind about how
 * the drawing reads, none or not (a zero is a finding), and those about the
 * scene itself that occurred in one of the drawings.
 */
export function lintColumns(drawings: SceneMeasures[]): string[] {
  return LINT_KINDS.filter((kind) => isLayoutKind(kind) || drawings.some((m) => m.lint.has(kind)));
}

export function defectCount(measures: SceneMeasures): number {
  return [...measures.lint.values()].reduce((a, b) => a + b, 0);
}

/**
 * Arrows the author wrote from → to whose target's centre lies upstream of the
 * source's along the direction the author gave them (the drawing's, or the
 * container's around both ends; TB: above it), by more than the slack,
 * unless the arrow's first and last moves along the flow both go downstream:
 * that is a drawing folded into bands (a long chain wrapped into rows), read
 * like lines of text, where the arrow runs on into the next band.
 */
function againstFlow(elements: Element[], drawing: Direction, flows: ReadonlyMap<string, Direction>): string[] {
  const byId = new Map(elements.map((e) => [e.id as string, e]));
  let direction = drawing;
  const along = ([fx, fy]: [number, number], [tx, ty]: [number, number]): number => {
    if (direction === 'TB') return ty - fy;
    if (direction === 'BT') return fy - ty;
    if (direction === 'LR') return tx - fx;
    return fx - tx;
  };
  const downstream = (from: Element, to: Element): number => along(centreOf(from), centreOf(to));
  // The first and last moves along the flow (a branch leaving a decision's side vertex first runs across it).
  const runsOn = (arrow: Element): boolean => {
    const points = (arrow.points as Array<[number, number]>).map(([x, y]): [number, number] => [arrow.x + x, arrow.y + y]);
    const moves = points.slice(1).map((p, k) => along(points[k]!, p)).filter((move) => Math.abs(move) > 0.5);
    return moves.length > 0 && moves[0]! > 0 && moves[moves.length - 1]! > 0;
  };
  return elements
    .filter((e) => e.type === 'arrow' && e.startBinding && e.endBinding && e.startBinding.elementId !== e.endBinding.elementId)
    .filter((arrow) => {
      direction = flows.get(arrow.id) ?? drawing;
      const from = byId.get(arrow.startBinding.elementId);
      const to = byId.get(arrow.endBinding.elementId);
      return from !== undefined && to !== undefined && downstream(from, to) < -AGAINST_FLOW_SLACK && !runsOn(arrow);
    })
    .map((arrow) => arrow.id as string);
}

function centreOf(e: Element): [number, number] {
  return [e.x + e.width / 2, e.y + e.height / 2];
}

/** The box holding every element, arrows by their points. */
export function boundsOf(elements: Element[]): { width: number; height: number } {
  let minX = Infinity;
  let minY = Infinity;
  let maxX = -Infinity;
  let maxY = -Infinity;
  const take = (x: number, y: number) => {
    minX = Math.min(minX, x);
    minY = Math.min(minY, y);
    maxX = Math.max(maxX, x);
    maxY = Math.max(maxY, y);
  };
  for (const e of elements) {
    if (Array.isArray(e.points)) for (const [px, py] of e.points) take(e.x + px, e.y + py);
    else {
      take(e.x, e.y);
      take(e.x + e.width, e.y + e.height);
    }
  }
  return minX === Infinity ? { width: 0, height: 0 } : { width: maxX - minX, height: maxY - minY };
}
