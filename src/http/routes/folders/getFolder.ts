import * as present from '../../../api/presenters/folders.ts';
import { Folder } from '../../../api/schemas.ts';
import { getFolder as folderOf } from '../../../app/folders/get-folder.ts';
import { defineRoute } from '../../../edge/route.ts';

export const getFolder = defineRoute({
  operationId: 'getFolder',
  method: 'GET',
  url: '/api/v1/folders/:id',
  access: { capability: 'read' },
  tags: ['folders'],
  summary: 'Get one of your folders',
  description: 'Where POST /folders points its Location. Folders are personal: any folder not yours is not_found.',
  response: { status: 200, schema: Folder, description: 'The folder' },
  errors: ['not_found'],
  handler: async ({ params, actor, deps }) => {
    return { json: present.folder(await folderOf(deps, actor, params.id!)) };
  },
});
