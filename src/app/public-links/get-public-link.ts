import type { PublicLinkRecord } from '../../store/store.ts';
import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/**
 * The state of a diagram's public link, for anyone who may view the diagram
 * (not_found for everyone else); null when it was never published.
 */
export async function getPublicLink(deps: AppDeps, caller: Caller, diagramId: string): Promise<PublicLinkRecord | null> {
  const diagram = await diagramFor(deps, caller, diagramId, 'read');
  return deps.store.publicLinks.find(diagram.id);
}
