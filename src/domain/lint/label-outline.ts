import { isKnownFontFamily, measureText } from '../text/metrics.ts';
import { type Box, boxPolygon, depthInside, type Point } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { describeShape, describeText, isShape, type SceneModel, type Shape, type Text } from './scene-model.ts';
import { MIN_LABEL_MARGIN } from './thresholds.ts';

/**
 * Bound labels that come closer than the margin to their shape's outline (an
 * ellipse's or a diamond's real outline, a rounded rectangle's with its
 * corners' arcs, not the box), or cross it: the text looks squeezed against
 * the line, or spills over it. Measured from the lines as set: each line's own
 * width (measured with the editor's font, placed by the text's alignment)
 * and the font size in height, without the leading of the line box (the
 * half-line above and below, 2.5 px at 20 px and line height 1.25), so a
 * short last line centred under a long one is not held against a corner it
 * does not reach. A label too large for its shape is clipped_label's to name
 * (`clipped`, the ids of those labels), not also this kind's. One issue per label.
 */
export function labelsNearOutline(model: SceneModel, clipped: ReadonlySet<string>): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const text of model.texts) {
    const shape = text.boundTo;
    if (!shape || !isShape(shape) || shape.kind !== 'body' || clipped.has(text.id)) continue;
    const margin = Math.min(...linesOf(text).flatMap((line) => boxPolygon(line).map((corner) => depthIn(corner, shape))));
    if (margin >= MIN_LABEL_MARGIN) continue;
    const where = margin < 0 ? 'crosses the outline of' : `comes ${Math.floor(margin)} px from the outline of`;
    issues.push({
      kind: 'label_near_outline',
      elementIds: [text.id, shape.id],
      message: `label ${describeText(text)} ${where} ${describeShape(shape)} (keep at least ${MIN_LABEL_MARGIN} px)`,
    });
  }
  return issues;
}

/** How far inside the shape's outline the point lies (negative outside); a rounded rectangle's corners are arcs. */
function depthIn(p: Point, shape: Shape): number {
  const r = shape.cornerRadius;
  const { x1, y1, x2, y2 } = shape.box;
  const [cx, cy] = [Math.min(Math.max(p[0], x1 + r), x2 - r), Math.min(Math.max(p[1], y1 + r), y2 - r)];
  const inCorner = r > 0 && cx !== p[0] && cy !== p[1];
  return inCorner ? r - Math.hypot(p[0] - cx, p[1] - cy) : depthInside(p, shape.outline);
}

/**
 * Each line's box: as wide as the line, placed by the alignment, as tall as
 * the font, centred in its line's height. A turned text, or one in a font
 * lint cannot measure, is its whole box.
 */
function linesOf(text: Text): Box[] {
  const { size, family, lineHeight, align } = text.font;
  if (text.outline.length !== 4 || text.outline[0]![1] !== text.outline[1]![1] || !isKnownFontFamily(family)) return [text.box];
  const { x1, y1, x2 } = text.box;
  const step = size * lineHeight;
  return text.wrapped.split('\n').flatMap((line, i): Box[] => {
    if (line.trim() === '') return [];
    const width = Math.min(x2 - x1, measureText(line, size, family).width);
    const left = align === 'center' ? (x1 + x2 - width) / 2 : align === 'right' ? x2 - width : x1;
    const top = y1 + i * step + (step - size) / 2;
    return [{ x1: left, y1: top, x2: left + width, y2: top + size }];
  });
}
