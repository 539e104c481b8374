/**
 * What changes who may be in a live room, told to every instance's rooms
 * over the live bus: they check the people there again and send `role` or
 * `gone`. Call after the change is committed.
 */
import type { StoreDeps } from '../deps.ts';

/** Who may read or edit a diagram changed: a share, a workspace membership or role, the trash. Without a diagram or workspace, every room checks `userId` (or everyone). */
export async function publishAccessChanged(deps: Pick<StoreDeps, 'store'>, target: { diagramId: string } | { workspaceId: string } | { userId: string }): Promise<void> {
  await deps.store.live.publish({ type: 'access', ...target });
}

/** A person's sessions ended (signed out, password reset, address verified by its owner): their rooms close for them where the session is gone. */
export async function publishSessionsEnded(deps: Pick<StoreDeps, 'store'>, userId: string): Promise<void> {
  await deps.store.live.publish({ type: 'sessions', userId });
}
