import type { FolderRecord } from '../../store/store.ts';

export interface FolderNode {
  folder: FolderRecord;
  /** 0 for a top-level folder. */
  depth: number;
}

const byName = (a: FolderRecord, b: FolderRecord) => a.name.localeCompare(b.name, 'en', { sensitivity: 'base' }) || a.id.localeCompare(b.id);

/**
 * The folders in the order a tree shows them: each folder followed by its
 * subfolders, siblings by name. A folder whose parent is not in the list is
 * shown at the top level, so none is ever hidden.
 */
export function folderTree(folders: readonly FolderRecord[]): FolderNode[] {
  const ids = new Set(folders.map((f) => f.id));
  const children = new Map<string | null, FolderRecord[]>();
  for (const folder of folders) {
    const parent = folder.parentId !== null && ids.has(folder.parentId) ? folder.parentId : null;
    children.set(parent, [...(children.get(parent) ?? []), folder]);
  }
  const ordered: FolderNode[] = [];
  const visited = new Set<string>();
  const visit = (parent: string | null, depth: number) => {
    for (const folder of (children.get(parent) ?? []).sort(byName)) {
      if (visited.has(folder.id)) continue;
      visited.add(folder.id);
      ordered.push({ folder, depth });
      visit(folder.id, depth + 1);
    }
  };
  visit(null, 0);
  // Only a parent loop (which the API cannot make) leaves folders unreached: show them at the top.
  for (const folder of [...folders].sort(byName)) {
    if (visited.has(folder.id)) continue;
    visited.add(folder.id);
    ordered.push({ folder, depth: 0 });
    visit(folder.id, 1);
  }
  return ordered;
}
