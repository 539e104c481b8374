export interface FolderRecord {
  id: string;
  ownerId: string;
  name: string;
  parentId: string | null;
  createdAt: string;
  updatedAt: string;
}

/** A user's folders, a tree by parentId. */
export interface FolderStore {
  /** The owner's folders in creation order. */
  list(ownerId: string): Promise<FolderRecord[]>;
  find(id: string): Promise<FolderRecord | null>;
  create(folder: FolderRecord): Promise<FolderRecord>;
  rename(id: string, name: string, now: string): Promise<FolderRecord | null>;
  /** Deletes the folder: its diagrams become unfiled, its subfolders move up to its parent. */
  delete(id: string, now: string): Promise<void>;
}
