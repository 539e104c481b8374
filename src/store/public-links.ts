import type { DiagramRecord } from './diagrams.ts';

export interface PublicLinkRecord {
  diagramId: string;
  slug: string;
  enabled: boolean;
  passwordHash: string | null;
  version: number;
  updatedAt: string;
}

/** The public link of a diagram (at most one each), found by diagram or by slug. */
export interface PublicLinkStore {
  find(diagramId: string): Promise<PublicLinkRecord | null>;
  /**
   * Applies a PUT to the diagram's public link, creating it with `slugIfNew` the
   * first time; `passwordHash` undefined leaves the password as it is. The
   * version increases by one per call, atomically.
   */
  update(diagramId: string, change: { enabled: boolean; passwordHash?: string | null }, slugIfNew: string, now: string): Promise<PublicLinkRecord>;
  findBySlug(slug: string): Promise<{ link: PublicLinkRecord; diagram: DiagramRecord } | null>;
}
