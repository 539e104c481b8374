import type { RouteDef } from '../../edge/route.ts';
import { createDiagram } from './diagrams/createDiagram.ts';
import { getDiagram } from './diagrams/getDiagram.ts';
import { addComment } from './comments/addComment.ts';
import { getComment } from './comments/getComment.ts';
import { listComments } from './comments/listComments.ts';
import { editDiagram } from './diagrams/editDiagram.ts';
import { getDiagramSource } from './diagrams/getDiagramSource.ts';
import { lintDiagram } from './diagrams/lintDiagram.ts';
import { patchDiagram } from './diagrams/patchDiagram.ts';
import { regenerateDiagram } from './diagrams/regenerateDiagram.ts';
import { renderDiagram } from './diagrams/renderDiagram.ts';
import { listDiagrams } from './diagrams/listDiagrams.ts';
import { restoreDiagram } from './diagrams/restoreDiagram.ts';
import { getPublicLink } from './diagrams/getPublicLink.ts';
import { setPublicLink } from './diagrams/setPublicLink.ts';
import { trashDiagram } from './diagrams/trashDiagram.ts';
import { updateDiagram } from './diagrams/updateDiagram.ts';
import { createFolder } from './folders/createFolder.ts';
import { deleteFolder } from './folders/deleteFolder.ts';
import { getFolder } from './folders/getFolder.ts';
import { listFolders } from './folders/listFolders.ts';
import { updateFolder } from './folders/updateFolder.ts';
import { getIcon } from './icons/getIcon.ts';
import { diffRevisions } from './revisions/diffRevisions.ts';
import { getRevision } from './revisions/getRevision.ts';
import { listRevisions } from './revisions/listRevisions.ts';
import { restoreRevision } from './revisions/restoreRevision.ts';
import { listIcons } from './icons/listIcons.ts';
import { validateContent } from './specs/validateContent.ts';
import { cancelDiagramInvitation } from './sharing/cancelDiagramInvitation.ts';
import { changeShare } from './sharing/changeShare.ts';
import { listShares } from './sharing/listShares.ts';
import { moveDiagram } from './sharing/moveDiagram.ts';
import { removeShare } from './sharing/removeShare.ts';
import { shareDiagram } from './sharing/shareDiagram.ts';
import { cancelWorkspaceInvitation } from './workspaces/cancelWorkspaceInvitation.ts';
import { changeMemberRole } from './workspaces/changeMemberRole.ts';
import { createWorkspace } from './workspaces/createWorkspace.ts';
import { getWorkspace } from './workspaces/getWorkspace.ts';
import { inviteMember } from './workspaces/inviteMember.ts';
import { listMembers } from './workspaces/listMembers.ts';
import { listWorkspaces } from './workspaces/listWorkspaces.ts';
import { removeMember } from './workspaces/removeMember.ts';
import { renameWorkspace } from './workspaces/renameWorkspace.ts';
import { getMe } from './me/getMe.ts';
import { healthz, readyz } from './system/health.ts';
import { openapiRoute } from './system/openapi.ts';

/** Every route of the service, in the order the OpenAPI document lists them. */
export const apiRoutes: RouteDef[] = [
  getMe,
  listDiagrams,
  createDiagram,
  getDiagram,
  updateDiagram,
  trashDiagram,
  restoreDiagram,
  renderDiagram,
  getPublicLink,
  setPublicLink,
  lintDiagram,
  getDiagramSource,
  editDiagram,
  regenerateDiagram,
  patchDiagram,
  listRevisions,
  getRevision,
  diffRevisions,
  restoreRevision,
  validateContent,
  listComments,
  addComment,
  getComment,
  listShares,
  shareDiagram,
  changeShare,
  removeShare,
  cancelDiagramInvitation,
  moveDiagram,
  listWorkspaces,
  createWorkspace,
  getWorkspace,
  renameWorkspace,
  listMembers,
  inviteMember,
  changeMemberRole,
  removeMember,
  cancelWorkspaceInvitation,
  listFolders,
  createFolder,
  getFolder,
  updateFolder,
  deleteFolder,
  listIcons,
  getIcon,
  openapiRoute(() => apiRoutes),
  healthz,
  readyz,
];
