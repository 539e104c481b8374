import { boxPolygon, lengthInside, polygonInside, polygonsOverlap, segmentToPolygon } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { ancestorsOf, describeShape, type Path, type SceneModel, type Shape } from './scene-model.ts';
import { MIN_LOOP_REACH, TOUCH_SLACK } from './thresholds.ts';

/** A label covering more than this share of its loop hides it. */
const MAX_LOOP_COVERED = 0.5;

/** An arrow from a shape back to itself. */
export const isSelfLoop = (path: Path): path is Path & { ends: [Shape, Shape] } => path.type === 'arrow' && path.ends[0] !== null && path.ends[0] === path.ends[1];

/**
 * Self-loops a reader can miss: the loop reaches less than the minimum out of
 * its shape's box (a small hook tucked against the shape, its arrowhead on
 * the shape's border; the box, not an ellipse's outline, whose curve falls
 * away from a loop's corners), or its label hides it: the label covers more than
 * half of the loop's length, or lies over the loop's shape or across the border of a container around it. Those
 * label crossings are this kind's, not label_overlap's. One issue per loop.
 */
export function hiddenSelfLoops(model: SceneModel): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const loop of model.paths) {
    if (!isSelfLoop(loop)) continue;
    const shape = loop.ends[0];
    const reach = Math.max(...loop.points.map((p) => segmentToPolygon(p, p, boxPolygon(shape.box))));
    const problem = reach < MIN_LOOP_REACH ? `reaches only ${Math.round(reach)} px out of ${describeShape(shape)} (at least ${MIN_LOOP_REACH} px)` : labelProblem(loop, shape);
    if (!problem) continue;
    const label = loop.label?.boundTo === loop ? [loop.label.id] : [];
    issues.push({ kind: 'hidden_self_loop', elementIds: [loop.id, shape.id, ...label], message: `self-loop "${loop.id}" ${problem}` });
  }
  return issues;
}

/** What the loop's label hides, or null. */
function labelProblem(loop: Path, shape: Shape): string | null {
  const label = loop.label;
  if (!label || label.boundTo !== loop) return null;
  const covered = loop.segments.reduce((sum, s) => sum + lengthInside(s.a, s.b, label.outline), 0);
  const length = loop.lengths[loop.lengths.length - 1]!;
  if (covered > length * MAX_LOOP_COVERED) return `is hidden by its label "${label.id}", which covers ${Math.round(covered)} px of its ${Math.round(length)} px (at most half)`;
  const under = labelOverLoopShape(label.outline, shape);
  if (under) return `has its label "${label.id}" over ${under === shape ? describeShape(shape) : `the border of ${describeShape(under)}`}`;
  return null;
}

/**
 * The loop's shape when its label lies over it, else the first container
 * around it whose border the label crosses, else null. label_overlap leaves
 * these to hidden_self_loop.
 */
function labelOverLoopShape(label: readonly (readonly [number, number])[], shape: Shape): Shape | null {
  if (polygonsOverlap(label, shape.outline, TOUCH_SLACK)) return shape;
  return ancestorsOf(shape).find((c) => polygonsOverlap(label, c.outline, TOUCH_SLACK) && !polygonInside(label, c.outline)) ?? null;
}
