import { type DiagramAction, mayPerform } from '../auth/policy.ts';
import { notFound } from '../errors.ts';
import type { DiagramMeta, DiagramRecord } from '../store/store.ts';
import type { Actor, AppDeps } from './route.ts';

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isUuid(value: string): boolean {
  return UUID.test(value);
}

/** Who is asking: an API token's actor, or a person signed in to the web app. Only the user matters to access. */
export type Caller = Pick<Actor, 'user'>;

/**
 * Loads a diagram the actor may act on, or throws 404 not_found: a diagram
 * outside the actor's access answers exactly like one that does not exist.
 */
export async function diagramWithElementsFor(deps: AppDeps, actor: Caller, id: string, action: DiagramAction): Promise<DiagramRecord> {
  const found = isUuid(id) ? await deps.store.findDiagramForUser(id, actor.user.id) : null;
  if (!found || !mayPerform(found.access, actor.user.id, action)) throw notFound();
  return found.diagram;
}

export async function diagramFor(deps: AppDeps, actor: Caller, id: string, action: DiagramAction): Promise<DiagramMeta> {
  const found = isUuid(id) ? await deps.store.findDiagramMetaForUser(id, actor.user.id) : null;
  if (!found || !mayPerform(found.access, actor.user.id, action)) throw notFound();
  return found.diagram;
}
