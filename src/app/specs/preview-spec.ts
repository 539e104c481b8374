import { contentFromSpec } from '../diagrams/content.ts';
import { callerShare } from '../diagrams/render-diagram.ts';
import type { Caller, ServiceDeps } from '../deps.ts';

/**
 * A spec laid out and drawn without storing anything, for the "New diagram"
 * page's preview: the same checks and layout as creating a diagram from it
 * (a refused spec throws the error create would), then the fast SVG with its
 * catalog icons, against the caller's fair share of the workers. Null for a
 * spec with no nodes.
 */
export async function previewSpec(deps: ServiceDeps, caller: Caller, spec: unknown): Promise<string | null> {
  const content = await contentFromSpec(deps, spec, caller);
  const result = await deps.renderer.render({ ...content, format: 'svg', quality: 'fast', icons: true, caller: callerShare(caller) });
  return result.isEmpty ? null : result.svg;
}
