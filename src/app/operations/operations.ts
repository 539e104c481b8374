/** What the operator and the server itself do to keep the service running. */
import { ApiError } from '../../errors.ts';
import type { StoreDeps } from '../deps.ts';

/** Whether the database answers; upstream_unavailable when it does not. */
export async function checkReady(deps: Pick<StoreDeps, 'store'>): Promise<void> {
  try {
    await deps.store.operations.ping();
  } catch {
    throw new ApiError('upstream_unavailable', 'the database does not answer');
  }
}

/** The API kill switch: while off, every authenticated API request is api_disabled (the web app keeps working). */
export function setApiEnabled(deps: Pick<StoreDeps, 'store'>, enabled: boolean): Promise<void> {
  return deps.store.operations.setApiEnabled(enabled);
}

/** Deletes expired sessions, emailed links and OAuth codes, tokens and interactions. */
export async function purgeExpired(deps: StoreDeps): Promise<{ sessions: number; emailTokens: number; oauthEntries: number }> {
  const now = deps.now().toISOString();
  const [purged, oauthEntries] = await Promise.all([deps.store.operations.purgeExpired(now), deps.store.oauth.purgeExpired(now)]);
  return { ...purged, oauthEntries };
}
