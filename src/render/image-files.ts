/**
 * The editor's `files` map for a scene's images. Scenes are stored without
 * files, so only catalog icons (`fileId` = `icon-…`) have anything to show;
 * the faithful renderer and the web editor both get them from here.
 */
import { iconDataUrl } from '../domain/icons/catalog.ts';
import { IMAGE_BUDGET_BYTES } from './types.ts';

export interface BinaryFile {
  id: string;
  mimeType: string;
  dataURL: string;
  created: number;
}

/** The editor's `files` map for the scene's images: catalog icons, in scene order, until the budget is spent. */
export function imageFiles(elements: readonly Record<string, unknown>[], budgetBytes = IMAGE_BUDGET_BYTES) {
  const files: Record<string, BinaryFile> = {};
  let spent = 0;
  let truncated = false;
  for (const element of elements) {
    const { fileId } = element;
    if (element.type !== 'image' || element.isDeleted === true || typeof fileId !== 'string' || fileId in files) continue;
    const dataURL = iconDataUrl(fileId);
    if (dataURL === undefined) continue;
    if (spent + dataURL.length > budgetBytes) {
      truncated = true;
      continue;
    }
    spent += dataURL.length;
    files[fileId] = { id: fileId, mimeType: dataURL.slice(5, dataURL.indexOf(';')), dataURL, created: 1 };
  }
  return { files, truncated };
}
