import { type Box, boxPolygon } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { describeText, pathsThrough, type SceneModel, type Shape } from './scene-model.ts';

/**
 * Arrows crossing a container's label: its text box, or the header strip
 * between the container's top and its children, as wide as the label. One
 * issue per arrow and container.
 */
export function edgesThroughContainerLabels(model: SceneModel): LintIssue[] {
  const childrenTop = new Map<Shape, number>();
  for (const shape of model.shapes) if (shape.parent) childrenTop.set(shape.parent, Math.min(childrenTop.get(shape.parent) ?? Infinity, shape.box.y1));
  const issues: LintIssue[] = [];
  for (const container of model.shapes) {
    const label = container.label;
    if (!container.isContainer || !label || label.boundTo !== container) continue;
    const header = boxPolygon(headerOf(container.box, label.box, childrenTop.get(container)!));
    for (const arrow of pathsThrough(model, header, (path) => path.type === 'arrow')) {
      issues.push({
        kind: 'edge_through_container_label',
        elementIds: [arrow.id, container.id, label.id],
        message: `arrow "${arrow.id}" crosses the label ${describeText(label)} of container "${container.id}"`,
      });
    }
  }
  return issues;
}

/** The label's column from the container's top down to its children, when the label sits above them; else the label alone. */
function headerOf(container: Box, label: Box, childrenTop: number): Box {
  if (label.y2 > childrenTop) return label;
  return { x1: label.x1, y1: Math.min(container.y1, label.y1), x2: label.x2, y2: childrenTop };
}
