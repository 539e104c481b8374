import * as present from '../../api/presenters/diagrams.ts';
import type { DiagramRecord } from '../../store/store.ts';
import { diagramFor, diagramWithElementsFor } from '../access.ts';
import type { AppDeps, Caller, ServiceDeps } from '../deps.ts';

/** A diagram with its scene, for anyone who may view it; not_found for everyone else. */
export function getDiagram(deps: AppDeps, caller: Caller, id: string): Promise<DiagramRecord> {
  return diagramWithElementsFor(deps, caller, id, 'read');
}

/**
 * A diagram's read answer, for anyone who may view it (not_found for everyone else): its ETag, and its
 * body unless `current` says the client holds that ETag already. The body is prepared once per revision
 * and then sent as bytes: a read of an unchanged diagram checks access and the fields its ETag covers,
 * and neither reads nor writes the scene.
 */
export async function readDiagram(
  deps: AppDeps & Pick<ServiceDeps, 'reads'>,
  caller: Caller,
  id: string,
  current: (etag: string) => boolean,
): Promise<{ etag: string; body: Buffer | null }> {
  const { publicUrl } = deps.config;
  const meta = await diagramFor(deps, caller, id, 'read');
  const prepared = deps.reads.get(meta, publicUrl);
  if (prepared !== undefined) return current(prepared.etag) ? { etag: prepared.etag, body: null } : prepared;
  const etag = deps.reads.etagOf(meta, publicUrl);
  if (current(etag)) return { etag, body: null };
  const diagram = await diagramWithElementsFor(deps, caller, id, 'read');
  return deps.reads.set(diagram, publicUrl, present.diagramJson(diagram, publicUrl));
}
