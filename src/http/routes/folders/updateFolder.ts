import { Folder, UpdateFolderBody } from '../../../api/schemas.ts';
import * as present from '../../../api/presenters/folders.ts';
import { renameFolder } from '../../../app/folders/rename-folder.ts';
import { defineRoute } from '../../../edge/route.ts';

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
    return { json: present.folder(await renameFolder(deps, actor, params.id!, body.name)) };
  },
});
