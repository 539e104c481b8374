import { type ContentKind, contentProblems } from '../../domain/content-problems.ts';
import { isCatalogIcon } from '../../domain/icons/catalog.ts';
import type { Problem } from '../../domain/problems.ts';
import { badRequest } from '../../errors.ts';
import type { CheckedContent } from '../../workers/scene-worker.ts';
import { diagramWithElementsFor } from '../access.ts';
import type { Caller, ServiceDeps } from '../deps.ts';
import { sceneWork } from '../diagrams/content.ts';

const KINDS: readonly ContentKind[] = ['spec', 'edit', 'ops', 'scene'];

/**
 * Content with more list entries than this (a spec's nodes and edges, ops, a
 * scene's elements, an edit's lists) is checked in a scene worker. Below it,
 * checking on the event loop costs under half a millisecond, about what the
 * hop to a worker and back costs.
 */
export const CHECKED_HERE_MAX_ENTRIES = 50;

/** How many entries content's lists hold: the content itself when it is a list, else its lists one level down. */
function listEntries(content: unknown): number {
  if (Array.isArray(content)) return content.length;
  if (typeof content !== 'object' || content === null) return 0;
  return Object.values(content).reduce((sum: number, value) => sum + (Array.isArray(value) ? value.length : 0), 0);
}

export interface ValidateInput {
  spec?: unknown;
  edit?: unknown;
  ops?: unknown;
  scene?: unknown;
  diagramId?: string;
}

export interface ValidationReport {
  valid: boolean;
  problems: Problem[];
}

/**
 * Every problem a write of this content would meet, without writing: a spec
 * or a scene as create and regenerate check them, an edit fragment or patch
 * ops as edit and patch do. With `diagramId` (the caller needs read on it),
 * an edit or ops are also checked against that diagram's current content.
 * Checking costs what the content (and the scene) costs, so it runs in a
 * scene worker, but for small content on its own.
 */
export async function validateContent(deps: ServiceDeps, caller: Caller, input: ValidateInput): Promise<ValidationReport> {
  const given = KINDS.filter((kind) => input[kind] !== undefined);
  if (given.length !== 1) throw badRequest(`send exactly one of "spec", "edit", "ops" or "scene"${given.length > 1 ? `; got ${given.join(' and ')}` : ''}`);
  const kind = given[0]!;
  const content = input[kind];
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

/**
 * Every problem content shows on its own: large content checked in a scene
 * worker, against the caller's share (without a caller, here). For the
 * validation endpoint, and for a write's body whose content fails its schema.
 */
export async function contentProblemsOf(deps: ServiceDeps, caller: Caller | undefined, kind: ContentKind, content: unknown): Promise<Problem[]> {
  if (caller === undefined || listEntries(content) <= CHECKED_HERE_MAX_ENTRIES) return contentProblems(kind, content, null, { isIcon: isCatalogIcon });
  return (await sceneWork<CheckedContent>(deps, { task: 'check', kind, elementsJson: null, content }, caller)).problems;
}
