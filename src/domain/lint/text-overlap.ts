import { polygonInside, polygonsOverlap } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { pairKey } from './edge-through-shape.ts';
import { ancestorsOf, describeShape, describeText, isShape, type Path, pathsThrough, type SceneModel, type Shape, type Text } from './scene-model.ts';
import { isSelfLoop } from './self-loops.ts';
import { TOUCH_SLACK } from './thresholds.ts';

/**
 * Text over what it does not belong to. `text_over_icon`: any text box over
 * an image, its own node's included. `label_overlap`: a text box over another
 * text, or over a box, ellipse, diamond or line other than its own node or
 * arrow, the containers around its node and a container it lies wholly inside;
 * a crossing another kind already names (an arrow through a node or free text,
 * an arrow's label or a container's label) is left to that kind.
 */
export function overlappingTexts(model: SceneModel, reportedRoutes: Set<string>): { labels: LintIssue[]; icons: LintIssue[] } {
  const labels: LintIssue[] = [];
  const icons: LintIssue[] = [];
  for (const text of model.texts) {
    const node = nodeOf(text);
    const ancestors = new Set(node ? ancestorsOf(node) : []);
    for (const i of model.shapeGrid.near(text.box)) {
      const shape = model.shapes[i]!;
      if (shape.kind === 'text' || !polygonsOverlap(text.outline, shape.outline, TOUCH_SLACK)) continue;
      if (shape.kind === 'image') icons.push({ kind: 'text_over_icon', elementIds: [text.id, shape.id], message: `${describeText(text)} overlaps the icon "${shape.id}"` });
      else if (!belongsUnder(text, shape, ancestors) && !hiddenUnder(text, shape.order)) labels.push({ kind: 'label_overlap', elementIds: [text.id, shape.id], message: `${describeText(text)} lies over ${describeShape(shape)}` });
    }
    for (const i of model.textGrid.near(text.box)) {
      const other = model.texts[i]!;
      if (other.index <= text.index || !polygonsOverlap(text.outline, other.outline, TOUCH_SLACK)) continue;
      labels.push({ kind: 'label_overlap', elementIds: [text.id, other.id], message: `${describeText(text)} overlaps ${describeText(other)}` });
    }
    for (const path of pathsThrough(model, text.outline, (path) => !namedElsewhere(text, path, reportedRoutes))) {
      labels.push({ kind: 'label_overlap', elementIds: [text.id, path.id], message: `${describeText(text)} lies over ${path.type} "${path.id}"` });
    }
  }
  return { labels, icons };
}

/** The node a text is part of: itself when free, the shape it labels, or null for an arrow's label. */
function nodeOf(text: Text): Shape | null {
  if (text.shape) return text.shape.owner;
  return text.boundTo && isShape(text.boundTo) ? text.boundTo.owner : null;
}

/**
 * Whether the text may lie over this shape: it is its own node, a container
 * around its node, or a container holding the whole text. A self-loop's label
 * over the loop's node or a container around it is hidden_self_loop's to name.
 */
function belongsUnder(text: Text, shape: Shape, ancestors: Set<Shape>): boolean {
  if (shape.id === text.ownerId || ancestors.has(shape) || (shape.isContainer && polygonInside(text.outline, shape.outline))) return true;
  const loop = text.boundTo && !isShape(text.boundTo) && isSelfLoop(text.boundTo) ? text.boundTo : null;
  return loop !== null && (shape === loop.ends[0] || ancestorsOf(loop.ends[0]).includes(shape));
}

/** A label in a filled shape drawn after what lies under it (drawn `order`th): the shape hides it there (a note over a lifeline). */
function hiddenUnder(text: Text, order: number): boolean {
  return text.boundTo !== null && isShape(text.boundTo) && text.boundTo.filled && text.boundTo.order > order;
}

function namedElsewhere(text: Text, path: Path, reportedRoutes: Set<string>): boolean {
  if (text.boundTo === path) return true;
  if (hiddenUnder(text, path.order)) return true;
  if (path.type !== 'arrow') return false;
  const labelsAnArrowOrContainer = text.boundTo !== null && (!isShape(text.boundTo) || text.boundTo.isContainer);
  return labelsAnArrowOrContainer || reportedRoutes.has(pairKey(path.id, text.ownerId));
}
