import { Folder, UpdateFolderBody } from '../../../api/schemas.ts';
import { present } from '../../presenters.ts';
import { defineRoute } from '../../route.ts';
import { folderName, folderOwnedBy } from './ownership.ts';

export const updateFolder = defineRoute({
  operationId: 'updateFolder',
  method: 'PATCH',
  url: '/api/v1/folders/:id',
  access: { capability: 'write' },
  tags: ['folders'],
  summary: 'Rename a folder',
  body: UpdateFolderBody,
  response: { status: 200, schema: Folder, description: 'The renamed folder' },
  errors: ['not_found'],
  handler: async ({ body, params, actor, deps }) => {
    const name = folderName(body.name);
    const folder = await folderOwnedBy(deps, actor, params.id!);
    const renamed = await deps.store.renameFolder(folder.id, name, deps.now().toISOString());
    return { json: present.folder(renamed ?? { ...folder, name }) };
  },
});
