import { clipSegment, segmentToPolygon } from './geometry.ts';
import type { LintIssue } from './issue.ts';
import { describeText, type Path, pathsThrough, type SceneModel, type Text } from './scene-model.ts';
import { MAX_LABEL_DISTANCE, MIN_VISIBLE_ARROW } from './thresholds.ts';

const labelledArrows = (model: SceneModel) => model.paths.filter((p): p is Path & { label: Text } => p.type === 'arrow' && p.label?.boundTo === p);

/**
 * Arrow labels farther from their arrow than the limit (they no longer read as
 * naming it), and labels on their arrow that leave less than the minimum of
 * visible arrow before the arrow enters their box or after it leaves it.
 */
export function misplacedArrowLabels(model: SceneModel): { detached: LintIssue[]; crowded: LintIssue[] } {
  const detached: LintIssue[] = [];
  const crowded: LintIssue[] = [];
  for (const arrow of labelledArrows(model)) {
    const label = arrow.label;
    const distance = Math.min(...arrow.segments.map((s) => segmentToPolygon(s.a, s.b, label.outline)));
    if (distance > MAX_LABEL_DISTANCE) {
      detached.push({
        kind: 'detached_arrow_label',
        elementIds: [label.id, arrow.id],
        message: `label ${describeText(label)} sits ${Math.round(distance)} px from its arrow "${arrow.id}" (at most ${MAX_LABEL_DISTANCE} px reads as naming it)`,
      });
      continue;
    }
    const visible = visibleAround(arrow, label);
    if (visible && Math.min(visible.before, visible.after) < MIN_VISIBLE_ARROW) {
      const [side, length] = visible.before <= visible.after ? ['before', visible.before] : ['after', visible.after];
      crowded.push({
        kind: 'crowded_arrow_label',
        elementIds: [label.id, arrow.id],
        message: `label ${describeText(label)} leaves only ${Math.floor(length)} px of arrow "${arrow.id}" visible ${side} it (at least ${MIN_VISIBLE_ARROW} px on each side)`,
      });
    }
  }
  return { detached, crowded };
}

/** The arrow's length before it first enters the label's box and after it last leaves it; null when it never enters. */
function visibleAround(arrow: Path, label: Text): { before: number; after: number } | null {
  let [enter, leave] = [Infinity, -Infinity];
  for (const s of arrow.segments) {
    const inside = clipSegment(s.a, s.b, label.outline);
    if (!inside) continue;
    const [start, length] = [arrow.lengths[s.at]!, arrow.lengths[s.at + 1]! - arrow.lengths[s.at]!];
    enter = Math.min(enter, start + inside[0] * length);
    leave = Math.max(leave, start + inside[1] * length);
  }
  return enter === Infinity ? null : { before: enter, after: arrow.lengths[arrow.lengths.length - 1]! - leave };
}

/** Arrows running through another arrow's label. One issue per arrow and label. */
export function arrowsThroughLabels(model: SceneModel): LintIssue[] {
  const issues: LintIssue[] = [];
  for (const owner of labelledArrows(model)) {
    const label = owner.label;
    for (const arrow of pathsThrough(model, label.outline, (path) => path.type === 'arrow' && path !== owner)) {
      issues.push({
        kind: 'arrow_through_label',
        elementIds: [arrow.id, label.id, owner.id],
        message: `arrow "${arrow.id}" runs through label ${describeText(label)} of arrow "${owner.id}"`,
      });
    }
  }
  return issues;
}
