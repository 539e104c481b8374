/** The applications a person connected through OAuth, as the tokens page lists them, and revoking one. */
import { type Capability, capabilitiesOfScope, normaliseCapabilities } from '../../auth/capabilities.ts';
import { notFound } from '../../errors.ts';
import type { OAuthGrantRecord } from '../../store/store.ts';
import type { Caller, StoreDeps } from '../deps.ts';

export interface ConnectedApplication {
  grantId: string;
  /** The client's registered name (untrusted text; escape it), or its id when it gave none. */
  name: string;
  capabilities: Capability[];
  createdAt: string;
  lastUsedAt: string | null;
}

function present(record: OAuthGrantRecord): ConnectedApplication {
  const grant = JSON.parse(record.grant) as { resources?: Record<string, string> };
  const client = record.client ? (JSON.parse(record.client) as { client_name?: unknown }) : null;
  const capabilities = normaliseCapabilities(Object.values(grant.resources ?? {}).flatMap((scope) => capabilitiesOfScope(scope)));
  return {
    grantId: record.grantId,
    name: typeof client?.client_name === 'string' && client.client_name !== '' ? client.client_name : record.clientId,
    capabilities,
    createdAt: record.createdAt,
    lastUsedAt: record.lastUsedAt,
  };
}

/** The caller's connected applications, newest first. */
export async function listConnectedApplications(deps: StoreDeps, caller: Caller): Promise<ConnectedApplication[]> {
  const records = await deps.store.oauth.listGrants(caller.user.id, deps.now().toISOString());
  return records.map(present);
}

/**
 * Revokes one of the caller's grants: the grant and every code, access and
 * refresh token of it are deleted, so its next API or MCP call is refused.
 * Someone else's grant is the same not_found as an unknown one.
 */
export async function revokeConnectedApplication(deps: StoreDeps, caller: Caller, grantId: string): Promise<void> {
  const records = await deps.store.oauth.listGrants(caller.user.id, deps.now().toISOString());
  if (!records.some((r) => r.grantId === grantId)) throw notFound();
  await deps.store.oauth.deleteGrant(grantId);
}
