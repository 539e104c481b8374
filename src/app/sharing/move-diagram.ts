/**
 * Moving a diagram into a workspace (its members then reach it, their role
 * the ceiling) or out of any: only its owner may, and only into a workspace
 * where the owner is an editor or admin. Anything else is not_found. The
 * move is a `move` event in the diagram's history.
 */
import type { DiagramMeta } from '../../store/store.ts';
import { diagramFor, workspaceFor } from '../access.ts';
import { type AppDeps, type Caller, viaOf } from '../deps.ts';
import { changeRecording } from '../history/recording.ts';
import { publishAccessChanged } from '../live/notify.ts';

export async function moveDiagramToWorkspace(deps: AppDeps, caller: Caller, diagramId: string, workspaceId: string | null): Promise<DiagramMeta> {
  const diagram = await diagramFor(deps, caller, diagramId, 'own');
  const target = workspaceId === null ? null : (await workspaceFor(deps, caller, workspaceId, 'file')).workspace.id;
  const by = deps.config.history ? { recording: changeRecording({ userId: caller.user.id, via: viaOf(caller) }), at: deps.now().toISOString() } : undefined;
  await deps.store.sharing.setDiagramWorkspace(diagram.id, target, by);
  await publishAccessChanged(deps, { diagramId: diagram.id });
  return { ...diagram, workspaceId: target };
}
