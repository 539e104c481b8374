import type { SourceWarning } from '../../domain/source/types.ts';
import type { AnySpecInput } from '../../domain/spec/any-spec.ts';
import { contentFromSource, contentFromSpec } from '../diagrams/content.ts';
import { callerShare } from '../diagrams/render-diagram.ts';
import type { Caller, ServiceDeps } from '../deps.ts';

/**
 * A spec or a source (Mermaid, DOT) laid out and drawn without storing
 * anything, for the "New diagram" page's preview: the same checks and layout
 * as creating a diagram from it (refused content throws the error create
 * would), then the fast SVG with its catalog icons, against the caller's fair
 * share of the workers. The SVG is null for content with no nodes; a source
 * brings its warnings.
 */
export async function previewContent(deps: ServiceDeps, caller: Caller, input: { spec?: AnySpecInput; source?: unknown }): Promise<{ svg: string | null; warnings?: SourceWarning[] }> {
  const content = input.source !== undefined ? await contentFromSource(deps, input.source, caller) : await contentFromSpec(deps, input.spec!, caller);
  const result = await deps.renderer.render({ elementsJson: content.elementsJson, elementCount: content.elementCount, format: 'svg', quality: 'fast', caller: callerShare(caller) });
  return { svg: result.isEmpty ? null : (result.svg ?? null), ...(content.warnings ? { warnings: content.warnings } : {}) };
}
