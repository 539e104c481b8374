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

/** Deletes expired sessions and emailed links. */
export function purgeExpired(deps: StoreDeps) {
  return deps.store.operations.purgeExpired(deps.now().toISOString());
}
