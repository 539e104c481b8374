// What leaves the server is built by the presenters in this folder, one file per resource, field by field, from
// the records the use cases read: every transport (the REST API, the web app, MCP through the API) answers with them.
import { type Capability, legacyScope } from '../../auth/capabilities.ts';
import type { UserRecord } from '../../store/store.ts';

/** The caller: who they are and what their credential may do. */
export const identity = (actor: { user: UserRecord; capabilities: readonly Capability[] }) => ({
  id: actor.user.id,
  email: actor.user.email,
  capabilities: [...actor.capabilities],
  scope: legacyScope(actor.capabilities),
});
