export interface CommentRecord {
  id: string;
  diagramId: string;
  elementId: string | null;
  body: string;
  authorId: string;
  createdAt: string;
  resolved: boolean;
  resolvedReason: string | null;
}

/** Comments on diagrams (a content write resolves those whose element it removes: see DiagramStore.writeContent). */
export interface CommentStore {
  add(comment: CommentRecord): Promise<CommentRecord>;
  /** A diagram's comments, oldest first. */
  list(diagramId: string): Promise<CommentRecord[]>;
}
