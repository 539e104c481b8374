import { inflate, lengthInside, segmentToPolygon } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { ancestorsOf, describeShape, type Path, type SceneModel, type Segment, type Shape } from './scene-model.ts';
import { SHAPE_CLEARANCE, TOUCH_SLACK } from './thresholds.ts';

/** A key for "this arrow was reported against this node", so text checks do not name the same pair again. */
export const pairKey = (arrowId: string, ownerId: string) => `${arrowId}\u0000${ownerId}`;

/**
 * Arrows passing through, or within the clearance of, the outline of a shape
 * other than their ends, the containers of their ends, and the parts of their
 * end nodes (label, icon). Text has no outline to keep clear of: an arrow
 * passes it only by running through its box. One issue per arrow and node passed.
 */
export function edgesThroughShapes(model: SceneModel): { issues: LintIssue[]; reported: Set<string> } {
  const issues: LintIssue[] = [];
  const reported = new Set<string>();
  for (const arrow of model.paths) {
    if (arrow.type !== 'arrow') continue;
    const isExempt = exemption(arrow);
    // Per node passed, the nearest of its parts (the node itself when equally near).
    const nearest = new Map<Shape, { part: Shape; distance: number }>();
    for (const segment of arrow.segments) {
      for (const i of model.shapeGrid.near(inflate(segment.box, SHAPE_CLEARANCE))) {
        const shape = model.shapes[i]!;
        if (isExempt(shape)) continue;
        const distance = nearness(segment, shape);
        const known = nearest.get(shape.owner);
        if (distance === null || (known && (known.distance < distance || (known.distance === distance && known.part === shape.owner)))) continue;
        nearest.set(shape.owner, { part: shape, distance });
      }
    }
    for (const [node, { part, distance }] of [...nearest].sort(([a], [b]) => a.index - b.index)) {
      reported.add(pairKey(arrow.id, node.id));
      const what = part === node ? describeShape(node) : `${describeShape(part)}, part of ${describeShape(node)}`;
      const message = distance < 1 ? `passes through ${what}, which it does not connect` : `passes ${Math.floor(distance)} px from ${what}, which it does not connect (keep more than ${SHAPE_CLEARANCE} px clear)`;
      issues.push({ kind: 'edge_through_shape', elementIds: part === node ? [arrow.id, node.id] : [arrow.id, node.id, part.id], message: `arrow "${arrow.id}" ${message}` });
    }
  }
  return { issues, reported };
}

/** How far the segment passes from the shape, or null when it keeps clear. */
function nearness(segment: Segment, shape: Shape): number | null {
  if (shape.kind === 'text') return lengthInside(segment.a, segment.b, shape.outline) > TOUCH_SLACK ? 0 : null;
  const distance = segmentToPolygon(segment.a, segment.b, shape.outline);
  return distance <= SHAPE_CLEARANCE ? distance : null;
}

/** What an arrow may touch: its end nodes with their parts, and every container around them. */
function exemption(arrow: Path): (shape: Shape) => boolean {
  const ends = arrow.ends.filter((e): e is Shape => e !== null);
  const owners = new Set(ends.map((e) => e.owner));
  const ancestors = new Set(ends.flatMap((e) => [...ancestorsOf(e), ...ancestorsOf(e.owner)]));
  return (shape) => owners.has(shape.owner) || ancestors.has(shape);
}
