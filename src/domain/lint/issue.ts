/** Kinds about the scene itself: broken bindings, clipped or illegible text, shapes on shapes, strays. */
const SCENE_KINDS = ['overlap', 'clipped_label', 'unbound_arrow', 'dangling_binding', 'outlier', 'low_contrast'] as const;

/** Kinds about how the drawing reads: routes, runs and labels a person sees as wrong. */
const LAYOUT_KINDS = [
  'edge_through_shape',
  'edges_overlap',
  'edge_through_container_label',
  'arrow_through_label',
  'crowded_arrow_label',
  'detached_arrow_label',
  'label_overlap',
  'text_over_icon',
  'broken_word',
  'edges_too_close',
  'piled_arrowheads',
  'small_arrowhead',
  'container_slack',
  'hidden_self_loop',
  'label_near_outline',
  'late_flow_start',
] as const;

/** Every kind of issue lint reports, in the order they are listed. */
export const LINT_KINDS = [...SCENE_KINDS, ...LAYOUT_KINDS] as const;

export type LintKind = (typeof LINT_KINDS)[number];

export const isLayoutKind = (kind: string): boolean => (LAYOUT_KINDS as readonly string[]).includes(kind);

export interface LintIssue {
  kind: LintKind;
  elementIds: string[];
  message: string;
}
