import * as present from '../../../api/presenters/folders.ts';
import { FolderList } from '../../../api/schemas.ts';
import { listFolders as foldersOf } from '../../../app/folders/list-folders.ts';
import { defineRoute } from '../../../edge/route.ts';

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
    const folders = await foldersOf(deps, actor);
    return { json: { items: folders.map(present.folder) } };
  },
});
