import { CONTAINER_PADDING } from '../layout/containers/containers.ts';
import { type Box, boxContains, boxOfPoints } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { ancestorsOf, describeShape, type SceneModel, type Shape } from './scene-model.ts';
import { MAX_CONTAINER_SLACK } from './thresholds.ts';

/**
 * Rectangular containers much larger than what they hold: their area is more
 * than the limit times the room their contents need. The contents are the
 * shapes directly inside (nodes, nested containers, icons, free texts) and the
 * arrows (with their labels) running between shapes inside it; the room they
 * need is their bounding box, widened to the container's label if that is
 * wider, with the label's row on top and the layout's container padding
 * (20 px) around. A mostly empty box reads as
 * holding something that is not there, and pushes the rest of the drawing away.
 */
export function slackContainers(model: SceneModel): LintIssue[] {
  const contents = new Map<Shape, Box[]>();
  const add = (container: Shape, box: Box) => {
    const boxes = contents.get(container);
    if (boxes) boxes.push(box);
    else contents.set(container, [box]);
  };
  for (const shape of model.shapes) if (shape.parent?.isContainer) add(shape.parent, shape.box);
  for (const path of model.paths) {
    const [from, to] = path.ends;
    if (!from || !to) continue;
    const around = new Set(ancestorsOf(from));
    const box = boxOfPoints([...path.points, ...(path.label?.boundTo === path ? [...path.label.outline] : [])]);
    // The innermost container holding both ends and the whole route.
    const container = ancestorsOf(to).find((c) => around.has(c) && boxContains(c.box, box));
    if (container?.isContainer) add(container, box);
  }
  const issues: LintIssue[] = [];
  for (const [container, boxes] of [...contents].sort(([a], [b]) => a.index - b.index)) {
    if (container.type !== 'rectangle') continue;
    const held = boxOfPoints(boxes.flatMap((b) => [[b.x1, b.y1] as const, [b.x2, b.y2] as const]));
    const label = container.label?.boundTo === container ? container.label.box : null;
    // The label's row on top of what it holds, as wide as the wider of the two.
    const width = Math.max(held.x2 - held.x1, label ? label.x2 - label.x1 : 0) + 2 * CONTAINER_PADDING;
    const height = held.y2 - held.y1 + (label ? label.y2 - label.y1 : 0) + 2 * CONTAINER_PADDING;
    const slack = container.area / Math.max(1, width * height);
    if (slack <= MAX_CONTAINER_SLACK) continue;
    issues.push({
      kind: 'container_slack',
      elementIds: [container.id],
      message: `container ${describeShape(container)} is ${slack.toFixed(1)}× the area its contents need (${Math.round(width)}×${Math.round(height)} with their label row and ${CONTAINER_PADDING} px of padding; at most ${MAX_CONTAINER_SLACK}×)`,
    });
  }
  return issues;
}
