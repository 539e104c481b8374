/**
 * Every problem with a piece of content, whatever its kind: the one entry
 * point the validation endpoint, the scene workers and the HTTP edge share.
 */
import { checkFragment } from './edit/fragment.ts';
import { indexScene } from './edit/scene-index.ts';
import type { SceneElement } from './edit/types.ts';
import { patchProblems } from './patch/apply.ts';
import type { Problem } from './problems.ts';
import { generatedElementCount } from './scene/from-spec.ts';
import { MAX_SCENE_ELEMENTS, sceneProblems } from './scene/validate.ts';
import { sourceShapeProblem } from './source/schema.ts';
import { checkAnySpec, isFlow } from './spec/any-spec.ts';

export type ContentKind = 'spec' | 'edit' | 'ops' | 'scene' | 'source';

export interface ContentOptions {
  isIcon: (id: string) => boolean;
}

/**
 * The problems of `value` as content of `kind`. `elements`, for an edit or
 * ops, is the diagram they would apply to: without it, what needs the
 * diagram (ids it has, edges to its nodes, the element an op names) is not
 * checked.
 */
export function contentProblems(kind: ContentKind, value: unknown, elements: SceneElement[] | null, options: ContentOptions): Problem[] {
  switch (kind) {
    case 'spec': {
      const { problems, spec } = checkAnySpec(value, options);
      if (spec === null || !isFlow(spec)) return problems;
      const count = generatedElementCount(spec);
      return count > MAX_SCENE_ELEMENTS ? [{ code: 'SCENE_TOO_LARGE', message: `this spec would make ${count} elements; the limit is ${MAX_SCENE_ELEMENTS}`, path: '', hint: 'split the diagram in two' }] : [];
    }
    case 'edit':
      return checkFragment(value, elements === null ? null : indexScene(elements), options).problems;
    case 'ops':
      return patchProblems(value, elements, options);
    case 'scene':
      return sceneProblems(value, options);
    case 'source': {
      // Its shape only: reading the text needs the source's parser (readSource, in the scene workers).
      const problem = sourceShapeProblem(value);
      return problem ? [problem] : [];
    }
  }
}
