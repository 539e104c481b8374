import { hashPassword } from '../../auth/passwords.ts';
import { randomBase62 } from '../../auth/token.ts';
import type { PublicLinkRecord } from '../../store/store.ts';
import { diagramFor } from '../access.ts';
import type { AppDeps, Caller } from '../deps.ts';

/** Characters of a public link's slug: random base62, fixed for the life of the diagram. */
const SLUG_LENGTH = 24;

export interface PublicLinkChange {
  enabled: boolean;
  /** A string sets the password, null clears it, undefined leaves it. */
  password?: string | null | undefined;
}

/** Enables or disables an owned diagram's public link; its `version` increases by one on every call. */
export async function setPublicLink(deps: AppDeps, caller: Caller, diagramId: string, change: PublicLinkChange): Promise<PublicLinkRecord> {
  const diagram = await diagramFor(deps, caller, diagramId, 'own');
  const passwordHash = change.password === undefined ? undefined : change.password === null ? null : await hashPassword(change.password);
  return deps.store.publicLinks.update(
    diagram.id,
    { enabled: change.enabled, ...(passwordHash === undefined ? {} : { passwordHash }) },
    randomBase62(SLUG_LENGTH),
    deps.now().toISOString(),
  );
}
