/**
 * Edits and patches applied as the server applies them: the edge checks the content's shape with its schema
 * and refuses it with the first problem the domain finds (nothing applied); content that passes goes on to
 * applyEdit or applyPatch, which add the checks against the diagram.
 */
import { applyEdit, type EditOptions, type EditResult } from '../../src/domain/edit/apply.ts';
import type { EditFragmentInput } from '../../src/domain/edit/schema.ts';
import type { SceneElement, WriteStamp } from '../../src/domain/edit/types.ts';
import { applyPatch, patchProblems, type PatchOptions, type PatchResult } from '../../src/domain/patch/apply.ts';
import type { PatchOpInput } from '../../src/domain/patch/schema.ts';
import { EditBody, PatchBody } from '../../src/api/schemas.ts';
import { checkFragment } from '../../src/domain/edit/fragment.ts';
import { throwFirst } from '../../src/domain/problems.ts';

export function editAsServed(elements: SceneElement[], fragment: unknown, stamp: WriteStamp, options: EditOptions): EditResult {
  if (!EditBody.safeParse(fragment).success) throwFirst(checkFragment(fragment, null, options).problems);
  return applyEdit(elements, fragment as EditFragmentInput, stamp, options);
}

export function patchAsServed(elements: SceneElement[], ops: unknown, stamp: WriteStamp, options: PatchOptions): PatchResult {
  if (!PatchBody.shape.ops.safeParse(ops).success) throwFirst(patchProblems(ops, null, options));
  return applyPatch(elements, ops as PatchOpInput[], stamp, options);
}
