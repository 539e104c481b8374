import { defineRoute } from '../../../edge/route.ts';
import { deleteFolder as removeFolder } from '../../../app/folders/delete-folder.ts';

export const deleteFolder = defineRoute({
  operationId: 'deleteFolder',
  method: 'DELETE',
  url: '/api/v1/folders/:id',
  access: { capability: 'delete' },
  tags: ['folders'],
  summary: 'Delete a folder',
  description: 'Its diagrams are not deleted: they become unfiled (root). Its subfolders move up to its parent.',
  response: { status: 204, description: 'Deleted' },
  // No body is expected, but one sent anyway is still parsed, and refused as any route refuses a bad body.
  errors: ['not_found', 'invalid_json', 'payload_too_large', 'PROTO_KEY'],
  handler: async ({ params, actor, deps }) => {
    await removeFolder(deps, actor, params.id!);
    return { status: 204 };
  },
});
