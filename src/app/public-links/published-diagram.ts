import { verifyPassword } from '../../auth/passwords.ts';
import type { DiagramRecord, PublicLinkRecord } from '../../store/store.ts';
import { imageOf, type RenderedImage, type RenderResult } from '../../render/renderer.ts';
import type { RenderOptions } from '../../render/types.ts';
import type { AppDeps, ServiceDeps } from '../deps.ts';
import { contentKeyOf, thumbnailRevision } from '../diagrams/render-diagram.ts';

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
    contentKey: contentKeyOf(diagram),
    format: 'svg',
    quality: 'faithful',
    caller: publicRenderCaller(link.slug),
  });
  return svg;
}

/** A published diagram's embeddable image, with the time its content last changed (for Last-Modified). */
export interface PublishedImage extends RenderResult {
  /** When the diagram's content last changed (ISO 8601). */
  contentUpdatedAt: string;
  /** The image in the format asked for; null for an empty scene. */
  image: RenderedImage | null;
}

/**
 * The embeddable image of a published diagram (`/p/:slug.svg|png|pdf`): the
 * faithful render (or the fast preview when that is unavailable) with the
 * caller's options, counted against the link's fair share as its page is.
 * Null when there is nothing to show: disabled, trashed, unknown, and
 * password-protected links alike (an image request cannot carry a password).
 */
export async function renderPublishedImage(deps: ServiceDeps, slug: string, format: 'svg' | 'png' | 'pdf', options: RenderOptions): Promise<PublishedImage | null> {
  const published = await publishedDiagram(deps, slug);
  if (!published || published.link.passwordHash !== null) return null;
  const { diagram, link } = published;
  const result = await deps.renderer.render({
    elementsJson: diagram.elementsJson,
    elementCount: diagram.elementCount,
    contentKey: contentKeyOf(diagram),
    format,
    quality: 'faithful',
    options,
    caller: publicRenderCaller(link.slug),
  });
  return { ...result, contentUpdatedAt: thumbnailRevision(diagram), image: imageOf(result, format) };
}
