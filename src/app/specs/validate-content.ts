import type { ContentKind } from '../../domain/content-problems.ts';
import type { Problem } from '../../domain/problems.ts';
import { badRequest } from '../../errors.ts';
import type { SourceWarning } from '../../domain/source/types.ts';
import type { CheckedContent, CheckedSource } from '../../workers/scene-worker.ts';
import { diagramWithElementsFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { contentProblemsOf, sceneWork } from '../diagrams/content.ts';

const KINDS: readonly ContentKind[] = ['spec', 'edit', 'ops', 'scene', 'source'];

export interface ValidateInput {
  spec?: unknown;
  edit?: unknown;
  ops?: unknown;
  scene?: unknown;
  source?: unknown;
  diagramId?: string;
}

export interface ValidationReport {
  valid: boolean;
  problems: Problem[];
  /** For a source: what the drawing would leave out (the source is valid all the same). */
  warnings?: SourceWarning[];
}

/**
 * Every problem a write of this content would meet, without writing: a spec,
 * a scene or a source as create and regenerate check them (a source with its
 * warnings), an edit fragment or patch
 * ops as edit and patch do. With `diagramId` (the caller needs read on it),
 * an edit or ops are also checked against that diagram's current content.
 * Checking costs what the content (and the scene) costs, so it runs in a
 * scene worker, but for small content on its own.
 */
export async function validateContent(deps: ServiceDeps, caller: Caller, input: ValidateInput): Promise<ValidationReport> {
  const given = KINDS.filter((kind) => input[kind] !== undefined);
  if (given.length !== 1) throw badRequest(`send exactly one of "spec", "edit", "ops", "scene" or "source"${given.length > 1 ? `; got ${given.join(' and ')}` : ''}`);
  const kind = given[0]!;
  const content = input[kind];
  if (kind === 'source') {
    if (input.diagramId !== undefined) throw badRequest('diagramId applies only to "edit" and "ops": a source replaces the whole diagram');
    // Reading a source needs its parser, which lives in the scene workers, whatever the source's size.
    const { problems, warnings } = await sceneWork<CheckedSource>(deps, { task: 'check-source', source: content }, caller);
    return { valid: problems.length === 0, problems, warnings };
  }
  let problems: Problem[];
  if (input.diagramId !== undefined) {
    if (kind !== 'edit' && kind !== 'ops') throw badRequest('diagramId applies only to "edit" and "ops": a spec or a scene replaces the whole diagram');
    const diagram = await diagramWithElementsFor(deps, caller, input.diagramId, 'read');
    problems = (await sceneWork<CheckedContent>(deps, { task: 'check', kind, elementsJson: diagram.elementsJson, content }, caller)).problems;
  } else {
    problems = await contentProblemsOf(deps, caller, kind, content);
  }
  return { valid: problems.length === 0, problems };
}
