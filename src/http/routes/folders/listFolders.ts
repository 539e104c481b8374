import { FolderList } from '../../../api/schemas.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';

export const listFolders = defineRoute({
  operationId: 'listFolders',
  method: 'GET',
  url: '/api/v1/folders',
  access: { capability: 'read' },
  tags: ['folders'],
  summary: 'List your folders',
  description: 'A flat list of every folder the caller owns; rebuild the tree from `parentId`.',
  response: { status: 200, schema: FolderList, description: 'All folders' },
  errors: [],
  handler: async ({ actor, deps }) => {
    const folders = await deps.store.listFolders(actor.user.id);
    return { json: { items: folders.map(present.folder) } };
  },
});
