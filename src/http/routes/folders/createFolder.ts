import { resourcePath } from '../../../api/paths.ts';
import * as present from '../../../api/presenters/folders.ts';
import { CreateFolderBody, Folder } from '../../../api/schemas.ts';
import { createFolder as makeFolder } from '../../../app/folders/create-folder.ts';
import { defineRoute } from '../../../edge/route.ts';

export const createFolder = defineRoute({
  operationId: 'createFolder',
  method: 'POST',
  url: '/api/v1/folders',
  access: { capability: 'write' },
  tags: ['folders'],
  summary: 'Create a folder',
  description: 'Top level, or inside one of your folders with `parentId`. The name is sanitised like a title and must not end up empty.',
  body: CreateFolderBody,
  response: { status: 201, schema: Folder, description: 'The new folder', headers: { Location: 'The new folder: /api/v1/folders/{id}' } },
  errors: ['folder_forbidden'],
  handler: async ({ body, actor, deps }) => {
    const folder = await makeFolder(deps, actor, body);
    return { status: 201, json: present.folder(folder), headers: { location: resourcePath.folder(folder.id) } };
  },
});
