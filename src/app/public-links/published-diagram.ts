import { verifyPassword } from '../../auth/passwords.ts';
import type { DiagramRecord, PublicLinkRecord } from '../../store/store.ts';
import type { AppDeps, ServiceDeps } from '../deps.ts';

const SLUG = /^[0-9A-Za-z]{20,64}$/;

export interface Published {
  diagram: DiagramRecord;
  link: PublicLinkRecord;
}

/** The diagram a public link shows, or null: disabled, trashed and unknown slugs alike. */
export async function publishedDiagram(deps: AppDeps, slug: string): Promise<Published | null> {
  if (!SLUG.test(slug)) return null;
  const found = await deps.store.publicLinks.findBySlug(slug);
  if (!found || !found.link.enabled || found.diagram.deletedAt !== null) return null;
  return found;
}

/** Whether the password opens the published diagram (true when it has none). */
export function unlocksPublished(published: Published, password: string): Promise<boolean> {
  return published.link.passwordHash === null ? Promise.resolve(true) : verifyPassword(password, published.link.passwordHash);
}

/**
 * Whose fair share of the render workers a public page's render counts
 * against: the link's, whoever opens it. Every visitor of a link asks for the
 * same picture, so a link's renders wait for each other (the cache answers
 * all but the first of each version) and a much-visited or hammered link
 * cannot take the workers from other people; the client address would be a
 * poor key, shared behind NATs and proxies and cheap to vary.
 */
const publicRenderCaller = (slug: string) => `public:${slug}`;

/** The published diagram as the editor draws it (the faithful SVG, or the fast preview when that is unavailable); null when empty. */
export async function renderPublished(deps: ServiceDeps, { diagram, link }: Published): Promise<string | null> {
  const { svg } = await deps.renderer.render({
    elementsJson: diagram.elementsJson,
    elementCount: diagram.elementCount,
    format: 'svg',
    quality: 'faithful',
    caller: publicRenderCaller(link.slug),
  });
  return svg;
}
