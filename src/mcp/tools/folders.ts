/** `list_folders` and `create_folder`. */
import * as S from '../../api/schemas.ts';
import { read, type ToolKit } from '../tool-kit.ts';

export function registerFolderTools(kit: ToolKit): void {
  const { tool } = kit;
  tool('list_folders', { description: 'List your folders: id, name, parentId.', fields: {}, example: {}, annotations: read }, (_a, c) => c.listFolders());
  tool(
    'create_folder',
    { description: 'Create a folder, optionally inside a parent folder.', fields: { name: S.CreateFolderBody.shape.name.describe('Folder name'), parentId: S.CreateFolderBody.shape.parentId }, example: { name: 'Architecture' } },
    (a, c) => c.createFolder({ name: a.name, ...(a.parentId !== undefined ? { parentId: a.parentId } : {}) }),
  );
}
