/**
 * "New diagram"'s live side: a preview of the spec, Mermaid or DOT as it is
 * typed (the server lays it out and draws it, exactly as creating would, a
 * moment after the last keystroke; refused content shows why, a source's
 * warnings are listed under it), and, for a spec, an icon picker that sets a
 * node's icon, or adds a node with it, in the spec text. Choosing another
 * language swaps the example in while the text is still an untouched example.
 */
import { useEffect, useMemo, useRef, useState } from 'react';
import { createRoot } from 'react-dom/client';
import { searchIcons } from '../../domain/icons/search.ts';
import { responseError } from './diagram-api.ts';

const PREVIEW_DELAY_MS = 500;
const ICONS_SHOWN = 60;

interface IconItem {
  id: string;
  label: string;
  category: string;
  subcategory?: string;
  aliases?: string[];
}

/** The picker's names for the catalog's categories: the vendors' own spellings, else the category capitalised. */
const CATEGORY_NAMES: Record<string, string> = { aws: 'AWS', azure: 'Azure', 'google-cloud': 'Google Cloud', kubernetes: 'Kubernetes', saas: 'SaaS', devtools: 'Developer tools' };
const categoryName = (category: string) => CATEGORY_NAMES[category] ?? category.charAt(0).toUpperCase() + category.slice(1);

type Preview = { kind: 'empty' } | { kind: 'busy' } | { kind: 'image'; url: string; warnings: Warning[] } | { kind: 'problem'; message: string };
type Language = 'spec' | 'mermaid' | 'dot';
interface Warning {
  line: number;
  message: string;
}

interface SpecNode {
  id: string;
  label?: string;
  icon?: string;
}

/** The spec text as an object with a node list, or null when it is not one (yet). */
function parseSpec(text: string): { nodes: SpecNode[] } & Record<string, unknown> | null {
  try {
    const spec = JSON.parse(text) as unknown;
    if (typeof spec !== 'object' || spec === null || Array.isArray(spec)) return null;
    const nodes = (spec as { nodes?: unknown }).nodes;
    return Array.isArray(nodes) ? (spec as { nodes: SpecNode[] }) : { ...(spec as object), nodes: [] };
  } catch {
    return null;
  }
}

/** An id for a new node, from the icon's name, not yet taken. */
function freshNodeId(nodes: readonly SpecNode[], icon: IconItem): string {
  const base = icon.id.replace(/^icon-/, '');
  const taken = new Set(nodes.map((node) => node.id));
  let id = base;
  for (let n = 2; taken.has(id); n++) id = `${base}-${n}`;
  return id;
}

async function fetchPreview(content: { spec: unknown } | { source: { language: Language; text: string } }, csrfToken: string, signal: AbortSignal): Promise<{ svg: string | null; warnings?: Warning[] }> {
  const response = await fetch('/app/api/specs/preview', {
    method: 'POST',
    headers: { 'content-type': 'application/json', accept: 'application/json', 'x-csrf-token': csrfToken },
    body: JSON.stringify(content),
    signal,
  });
  if (!response.ok) {
    const error = await responseError(response);
    throw new Error(error.code ? `${error.code}: ${error.message}` : error.message);
  }
  return (await response.json()) as { svg: string | null; warnings?: Warning[] };
}

/** The text box's label per language (as the server writes it). */
const TEXT_LABELS: Record<Language, string> = { spec: 'Spec', mermaid: 'Mermaid', dot: 'DOT' };

function SpecSide({ form, textarea, csrfToken, examples }: { form: HTMLFormElement; textarea: HTMLTextAreaElement; csrfToken: string; examples: Record<Language, string> }) {
  const [text, setText] = useState(textarea.value);
  const checkedLanguage = () => (form.querySelector<HTMLInputElement>('input[name=language]:checked')?.value ?? 'spec') as Language;
  const [language, setLanguage] = useState<Language>(checkedLanguage);

  useEffect(() => {
    const onChange = (event: Event) => {
      if ((event.target as HTMLInputElement).name !== 'language') return;
      const next = checkedLanguage();
      // An untouched example gives way to the new language's; anything typed stays.
      if (Object.values(examples).some((example) => example.trim() === textarea.value.trim()) || textarea.value.trim() === '') {
        textarea.value = examples[next];
        setText(textarea.value);
      }
      const label = form.querySelector<HTMLLabelElement>('label[for=spec]');
      if (label) label.textContent = TEXT_LABELS[next];
      setLanguage(next);
    };
    form.addEventListener('change', onChange);
    return () => form.removeEventListener('change', onChange);
  }, [form, textarea, examples]);
  const [preview, setPreview] = useState<Preview>({ kind: 'busy' });
  const [icons, setIcons] = useState<IconItem[] | null>(null);
  const [query, setQuery] = useState('');
  const [category, setCategory] = useState('');
  const [target, setTarget] = useState('');
  const previewUrl = useRef<string | null>(null);

  useEffect(() => {
    const onInput = () => setText(textarea.value);
    textarea.addEventListener('input', onInput);
    return () => textarea.removeEventListener('input', onInput);
  }, [textarea]);

  // The preview follows the text a moment after the last change; an answer to older text is dropped.
  useEffect(() => {
    if (text.trim() === '') {
      setPreview({ kind: 'empty' });
      return;
    }
    let content: { spec: unknown } | { source: { language: Language; text: string } };
    if (language === 'spec') {
      try {
        content = { spec: JSON.parse(text) };
      } catch (error) {
        setPreview({ kind: 'problem', message: `Not valid JSON yet: ${(error as Error).message}` });
        return;
      }
    } else content = { source: { language, text } };
    const abort = new AbortController();
    const timer = setTimeout(() => {
      setPreview({ kind: 'busy' });
      fetchPreview(content, csrfToken, abort.signal)
        .then(({ svg, warnings }) => {
          if (svg === null) return setPreview({ kind: 'empty' });
          previewUrl.current = `data:image/svg+xml;charset=utf-8,${encodeURIComponent(svg)}`;
          setPreview({ kind: 'image', url: previewUrl.current, warnings: warnings ?? [] });
        })
        .catch((error: unknown) => {
          if (!abort.signal.aborted) setPreview({ kind: 'problem', message: (error as Error).message });
        });
    }, PREVIEW_DELAY_MS);
    return () => {
      clearTimeout(timer);
      abort.abort();
    };
  }, [text, csrfToken, language]);

  useEffect(() => {
    fetch('/app/api/icons', { headers: { accept: 'application/json' } })
      .then(async (response) => (response.ok ? ((await response.json()) as { items: IconItem[] }).items : []))
      .then(setIcons, () => setIcons([]));
  }, []);

  const nodes = useMemo(() => parseSpec(text)?.nodes.filter((node) => typeof node?.id === 'string') ?? [], [text]);
  const categories = useMemo(() => [...new Set((icons ?? []).map((icon) => icon.category))].sort((a, b) => categoryName(a).localeCompare(categoryName(b))), [icons]);
  const matching = useMemo(
    () => searchIcons((icons ?? []).filter((icon) => category === '' || icon.category === category), query).slice(0, ICONS_SHOWN),
    [icons, query, category],
  );

  const useIcon = (icon: IconItem) => {
    const spec = parseSpec(textarea.value) ?? { nodes: [] };
    const node = spec.nodes.find((n) => n.id === target);
    if (node) node.icon = icon.id;
    else spec.nodes.push({ id: freshNodeId(spec.nodes, icon), label: icon.label, icon: icon.id });
    textarea.value = JSON.stringify(spec, null, 2);
    textarea.dispatchEvent(new Event('input', { bubbles: true }));
  };

  return (
    <>
      <section className="spec-preview" aria-labelledby="preview-heading">
        <h2 id="preview-heading">Preview</h2>
        <div className="preview-box" aria-live="polite">
          {preview.kind === 'image' && <img src={preview.url} alt={`Preview of the diagram the ${language === 'spec' ? 'spec' : 'source'} makes`} />}
          {preview.kind === 'image' && preview.warnings.length > 0 && (
            <ul className="preview-warnings" aria-label="What the drawing leaves out">
              {preview.warnings.map((warning) => (
                <li key={`${warning.line}:${warning.message}`}>
                  Line {warning.line}: {warning.message}
                </li>
              ))}
            </ul>
          )}
          {preview.kind === 'busy' && <p className="muted">Drawing…</p>}
          {preview.kind === 'empty' && <p className="muted">Nothing to draw: empty content makes a blank diagram.</p>}
          {preview.kind === 'problem' && (
            <p className="error" role="alert">
              {preview.message}
            </p>
          )}
        </div>
      </section>
      <section className="icon-picker" aria-labelledby="icons-heading" hidden={language !== 'spec'}>
        <h2 id="icons-heading">Icons</h2>
        <div className="icon-picker-controls">
          <select aria-label="Put the icon on" value={target} onChange={(event) => setTarget(event.target.value)}>
            <option value="">A new node</option>
            {nodes.map((node) => (
              <option key={node.id} value={node.id}>
                Node “{node.id}”
              </option>
            ))}
          </select>
          <select aria-label="Icon set" value={category} onChange={(event) => setCategory(event.target.value)}>
            <option value="">All icons</option>
            {categories.map((name) => (
              <option key={name} value={name}>
                {categoryName(name)}
              </option>
            ))}
          </select>
          <input type="search" placeholder="Search icons: s3, aks, pod…" aria-label="Search icons" value={query} onChange={(event) => setQuery(event.target.value)} />
        </div>
        <ul className="icon-grid">
          {matching.map((icon) => (
            <li key={icon.id}>
              <button type="button" title={`${icon.label} (${icon.id}; ${categoryName(icon.category)}${icon.subcategory ? `, ${icon.subcategory}` : ''})`} onClick={() => useIcon(icon)}>
                <img src={`/app/icons/${encodeURIComponent(icon.id)}.svg`} alt="" loading="lazy" width={28} height={28} />
                <span>{icon.label}</span>
              </button>
            </li>
          ))}
        </ul>
        {icons !== null && matching.length === 0 && <p className="muted">No icon matches “{query}”{category ? ` in ${categoryName(category)}` : ''}.</p>}
      </section>
    </>
  );
}

export function startNewDiagramPage(form: HTMLFormElement): void {
  const textarea = form.querySelector<HTMLTextAreaElement>('textarea[name=spec]');
  const side = form.querySelector<HTMLElement>('#spec-side');
  const csrfToken = form.querySelector<HTMLInputElement>('input[name=_csrf]')?.value ?? '';
  if (!textarea || !side) return;
  const examples = JSON.parse(side.dataset.examples ?? '{}') as Record<Language, string>;
  side.hidden = false;
  createRoot(side).render(<SpecSide form={form} textarea={textarea} csrfToken={csrfToken} examples={examples} />);
}
