import { drawnArrowheadSize, fullArrowheadSize } from '../scene/arrowhead-size.ts';
import type { Point } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { describeShape, type Path, type SceneModel, type Shape } from './scene-model.ts';
import { MIN_ARROWHEAD_GAP, MIN_ARROWHEAD_SHARE } from './thresholds.ts';

type Side = 'top' | 'right' | 'bottom' | 'left';

interface Tip {
  arrow: Path;
  at: Point;
}

/**
 * Arrowheads reaching the same side of the same shape with their tips closer
 * than the gap: they pile into one blot and a reader cannot count them. The
 * side is the one of the shape's box the tip faces (an ellipse or a diamond
 * by the same rule). Tips are chained (a close to b, b close to c: one pile);
 * one issue per pile, naming its arrows and the shape.
 */
export function piledArrowheads(model: SceneModel): LintIssue[] {
  const tipsAt = new Map<string, { shape: Shape; side: Side; tips: Tip[] }>();
  for (const arrow of model.paths) {
    if (arrow.type !== 'arrow') continue;
    for (const end of [0, 1] as const) {
      const shape = arrow.ends[end];
      if (!shape || !arrow.heads[end]) continue;
      const at = end === 0 ? arrow.points[0]! : arrow.points[arrow.points.length - 1]!;
      const side = sideFacing(shape, at);
      const key = `${shape.index}:${side}`;
      const entry = tipsAt.get(key) ?? { shape, side, tips: [] };
      entry.tips.push({ arrow, at });
      tipsAt.set(key, entry);
    }
  }
  const issues: LintIssue[] = [];
  for (const { shape, side, tips } of [...tipsAt.values()].sort((a, b) => a.shape.index - b.shape.index)) {
    for (const pile of piles(tips, side === 'top' || side === 'bottom' ? 0 : 1)) {
      const arrows = [...new Set(pile.map((t) => t.arrow))].sort((a, b) => a.index - b.index);
      if (arrows.length < 2) continue;
      issues.push({
        kind: 'piled_arrowheads',
        elementIds: [...arrows.map((a) => a.id), shape.id],
        message: `${arrows.length} arrowheads (${arrows.map((a) => `"${a.id}"`).join(', ')}) reach the ${side} of ${describeShape(shape)} with tips less than ${MIN_ARROWHEAD_GAP} px apart: they read as one`,
      });
    }
  }
  return issues;
}

/**
 * Arrowheads drawn at under half their size: the editor draws a head at most
 * half as long as the arrow's last leg (a quarter for a diamond), so a leg of
 * 16 px draws an 8-px head beside the 25-px heads of the arrows around it, and
 * one of 8 px a 4-px hook a reader does not see as a head. One issue per head.
 */
export function smallArrowheads(model: SceneModel): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const arrow of model.paths) {
    if (arrow.type !== 'arrow') continue;
    for (const end of [0, 1] as const) {
      const kind = arrow.headKinds[end];
      if (!kind || arrow.points.length < 2) continue;
      const [tip, neighbour] = end === 0 ? [arrow.points[0]!, arrow.points[1]!] : [arrow.points[arrow.points.length - 1]!, arrow.points[arrow.points.length - 2]!];
      const leg = Math.hypot(tip[0] - neighbour[0], tip[1] - neighbour[1]);
      const drawn = drawnArrowheadSize(kind, leg);
      const full = fullArrowheadSize(kind);
      if (drawn >= full * MIN_ARROWHEAD_SHARE) continue;
      issues.push({
        kind: 'small_arrowhead',
        elementIds: [arrow.id],
        message: `the arrowhead at the ${end === 0 ? 'start' : 'end'} of arrow "${arrow.id}" is drawn ${Math.round(drawn)} px long, under half its full ${full} px: its last leg is only ${Math.round(leg)} px`,
      });
    }
  }
  return issues;
}

/** The side of the shape's box the point faces, judged in the box's proportions from its centre. */
function sideFacing(shape: Shape, [x, y]: Point): Side {
  const { x1, y1, x2, y2 } = shape.box;
  const [dx, dy] = [(x - (x1 + x2) / 2) / Math.max(1, (x2 - x1) / 2), (y - (y1 + y2) / 2) / Math.max(1, (y2 - y1) / 2)];
  if (Math.abs(dx) > Math.abs(dy)) return dx > 0 ? 'right' : 'left';
  return dy > 0 ? 'bottom' : 'top';
}

/**
 * The groups of tips linked by chains of tips closer than the gap; lone tips
 * left out. Sorted along the side (`axis`), each tip is compared only with
 * those within the gap along it.
 */
function piles(unsorted: Tip[], axis: 0 | 1): Tip[][] {
  const tips = [...unsorted].sort((a, b) => a.at[axis] - b.at[axis] || a.arrow.index - b.arrow.index);
  const group = tips.map((_, i) => i);
  const find = (i: number): number => (group[i] === i ? i : (group[i] = find(group[i]!)));
  for (let i = 0; i < tips.length; i++) {
    for (let j = i + 1; j < tips.length && tips[j]!.at[axis] - tips[i]!.at[axis] < MIN_ARROWHEAD_GAP; j++) {
      if (Math.hypot(tips[i]!.at[0] - tips[j]!.at[0], tips[i]!.at[1] - tips[j]!.at[1]) < MIN_ARROWHEAD_GAP) group[find(j)] = find(i);
    }
  }
  const byRoot = new Map<number, Tip[]>();
  tips.forEach((tip, i) => byRoot.set(find(i), [...(byRoot.get(find(i)) ?? []), tip]));
  return [...byRoot.values()].filter((pile) => pile.length > 1);
}
