/**
 * A class or ER diagram's scene read back as the spec it draws, and written
 * as Mermaid's `classDiagram` or `erDiagram`. Read from the elements as they
 * are now: each box's name from its label, its compartments from its texts
 * (by section and column), its namespace from the container around it; each
 * relation between the boxes its ends are bound to, its heads from the
 * arrow's, its multiplicities from the texts beside its ends.
 */
import type { SceneElement } from '../edit/types.ts';
import type { ClassSpecInput } from '../structure/class-spec.ts';
import type { ErSpecInput } from '../structure/er-spec.ts';

const dataOf = (e: SceneElement) => (e.customData ?? {}) as Record<string, unknown>;
const num = (v: unknown) => (typeof v === 'number' && Number.isFinite(v) ? v : 0);
const textOf = (e: SceneElement | undefined) => (e ? String(e.originalText ?? e.text ?? '') : '');
/** A box's name as its author wrote it: without the breaks Drawbridge put inside a word too wide for the box. */
const nameOf = (e: SceneElement | undefined) => {
  const authored = (e?.customData as { authoredLabel?: unknown } | undefined)?.authoredLabel;
  return typeof authored === 'string' ? authored : textOf(e);
};
const inside = (inner: SceneElement, outer: SceneElement) =>
  num(inner.x) >= num(outer.x) && num(inner.y) >= num(outer.y) && num(inner.x) + num(inner.width) <= num(outer.x) + num(outer.width) && num(inner.y) + num(inner.height) <= num(outer.y) + num(outer.height);

const CLASS_LEFT: Record<string, string> = { triangle_outline: '<|', triangle: '<|', diamond: '*', diamond_outline: 'o', arrow: '<' };
const CLASS_RIGHT: Record<string, string> = { triangle_outline: '|>', triangle: '|>', diamond: '*', diamond_outline: 'o', arrow: '>' };
const ER_LEFT: Record<string, string> = { crowfoot_one: '||', crowfoot_many: '}o', crowfoot_one_or_many: '}|' };
const ER_RIGHT: Record<string, string> = { crowfoot_one: '||', crowfoot_many: 'o{', crowfoot_one_or_many: '|{' };
const quoted = (id: string) => (/^[^\s"]+$/.test(id) ? id : `"${id.replace(/["\\]/g, '\\$&')}"`);
/** An entity's name as Mermaid's ER grammar reads it: bare when it is a plain word, else in double quotes. */
const entityName = (id: string) => (/^[A-Za-z_][\w-]*$/.test(id) ? id : `"${id.replace(/"/g, "'")}"`);

interface Read {
  kind: 'class' | 'er';
  spec: ClassSpecInput | ErSpecInput;
}

/** The class or ER spec a scene draws, or null when it is neither. */
export function structureOfScene(elements: readonly SceneElement[]): Read | null {
  const live = elements.filter((e) => !e.isDeleted);
  const boxes = live.filter((e) => dataOf(e).structure === 'class' || dataOf(e).structure === 'entity');
  if (boxes.length === 0) return null;
  const kind = boxes.some((b) => dataOf(b).structure === 'entity') ? 'er' : 'class';
  const byId = new Map(live.map((e) => [e.id, e]));
  const boundText = new Map(live.filter((e) => e.type === 'text' && typeof e.containerId === 'string').map((e) => [e.containerId as string, e]));
  // Each box's compartment cells, by the group they share with it: gathered once.
  const cellsByGroup = new Map<string, SceneElement[]>();
  for (const e of live) {
    if (e.type !== 'text' || !Array.isArray(e.groupIds) || typeof dataOf(e).section !== 'number') continue;
    for (const group of e.groupIds as string[]) cellsByGroup.set(group, [...(cellsByGroup.get(group) ?? []), e]);
  }
  const cells = (box: SceneElement) => cellsByGroup.get(`${box.id}-group`) ?? [];
  const namespaces = live.filter((e) => dataOf(e).structure === 'namespace');
  const boxIds = new Set(boxes.map((b) => b.id));
  const relations = live.filter((e) => e.type === 'arrow' && dataOf(e).structure === 'relation');
  const endText = (arrow: SceneElement, end: 'head' | 'tail') => textOf(byId.get(`${arrow.id}-${end}-label`));
  const ends = (arrow: SceneElement) => [(arrow.startBinding as { elementId?: string } | null)?.elementId, (arrow.endBinding as { elementId?: string } | null)?.elementId] as const;
  const caption = live.find((e) => e.id === 'diagram-caption');

  if (kind === 'er') {
    const entities: NonNullable<ErSpecInput['entities']> = boxes.map((box) => {
      const columns = new Map<number, string[]>();
      for (const cell of cells(box)) columns.set(num(dataOf(cell).column), textOf(cell).split('\n'));
      const rows = Math.max(0, ...[...columns.values()].map((c) => c.length));
      const attributes = Array.from({ length: rows }, (_, i) => {
        const [type, name, keys, comment] = [1, 2, 3, 4].map((c) => (columns.get(c)?.[i] ?? '').trim());
        const keyList = (keys ?? '').split(/[,\s]+/).filter((k): k is 'PK' => k === 'PK' || k === 'FK' || k === 'UK');
        return { type: type!, name: name!, ...(keyList.length > 0 ? { keys: keyList } : {}), ...(comment ? { comment } : {}) };
      }).filter((a) => a.type !== '' && a.name !== '');
      const label = nameOf(boundText.get(box.id)).replace(/\s*\n\s*/g, ' ');
      return attributes.length === 0 && (label === box.id || label === '') ? box.id : { id: box.id, ...(label !== box.id && label !== '' ? { label } : {}), ...(attributes.length > 0 ? { attributes } : {}) };
    });
    const relationships = relations.flatMap((arrow) => {
      const [from, to] = ends(arrow);
      if (!from || !to || !boxIds.has(from) || !boxIds.has(to)) return [];
      const optional = (text: string) => text === '0..1';
      const left = ER_LEFT[String(arrow.startArrowhead)] ?? '||';
      const right = ER_RIGHT[String(arrow.endArrowhead)] ?? '||';
      const l = optional(endText(arrow, 'tail')) ? (left === '||' ? '|o' : '}o') : left;
      const r = optional(endText(arrow, 'head')) ? (right === '||' ? 'o|' : 'o{') : right;
      const label = textOf(boundText.get(arrow.id)).replace(/\n/g, ' ');
      return [`${entityName(from)} ${l}${arrow.strokeStyle === 'dashed' ? '..' : '--'}${r} ${entityName(to)}${label ? ` : ${label}` : ''}`];
    });
    const spec: ErSpecInput = { kind: 'er', entities, relationships };
    if (caption) spec.caption = textOf(caption);
    return { kind, spec };
  }

  const classes: NonNullable<ClassSpecInput['classes']> = boxes.map((box) => {
    const lines = nameOf(boundText.get(box.id)).split('\n');
    const annotation = /^«(.*)»$/.exec(lines[0] ?? '')?.[1];
    const named = (annotation !== undefined ? lines.slice(1) : lines).join(' ');
    const generic = /^(.*)<([^<>]*)>$/.exec(named);
    const name = generic ? generic[1]! : named;
    const section = (n: number) => cells(box).filter((c) => dataOf(c).section === n).flatMap((c) => textOf(c).split('\n')).filter((line) => line.trim() !== '');
    const namespace = namespaces.find((ns) => inside(box, ns));
    const entry: Record<string, unknown> = { id: box.id };
    if (name !== box.id && name !== '') entry.label = name;
    if (annotation) entry.annotation = annotation;
    if (generic) entry.generic = generic[2];
    if (section(1).length > 0) entry.attributes = section(1);
    if (section(2).length > 0) entry.methods = section(2);
    if (namespace) entry.namespace = textOf(boundText.get(namespace.id)) || namespace.id;
    return entry as NonNullable<ClassSpecInput['classes']>[number];
  });
  const relationStrings = relations.flatMap((arrow) => {
    const [from, to] = ends(arrow);
    if (!from || !to || !boxIds.has(from) || !boxIds.has(to)) return [];
    const mark = `${CLASS_LEFT[String(arrow.startArrowhead)] ?? ''}${arrow.strokeStyle === 'dashed' || arrow.strokeStyle === 'dotted' ? '..' : '--'}${CLASS_RIGHT[String(arrow.endArrowhead)] ?? ''}`;
    const [tail, head] = [endText(arrow, 'tail'), endText(arrow, 'head')];
    const label = textOf(boundText.get(arrow.id)).replace(/\n/g, ' ');
    return [`${quoted(from)} ${tail ? `"${tail}" ` : ''}${mark} ${head ? `"${head}" ` : ''}${quoted(to)}${label ? ` : ${label}` : ''}`];
  });
  const notes = live
    .filter((e) => dataOf(e).structure === 'note')
    .map((note) => {
      const link = live.find((e) => e.type === 'arrow' && dataOf(e).structure === 'note-link' && ends(e)[0] === note.id);
      const target = link ? ends(link)[1] : undefined;
      return { note: textOf(boundText.get(note.id)), ...(target && boxIds.has(target) ? { for: target } : {}) };
    });
  const spec: ClassSpecInput = { kind: 'class', classes, relations: relationStrings };
  if (notes.length > 0) spec.notes = notes;
  if (caption) spec.caption = textOf(caption);
  return { kind, spec };
}

const memberLine = (member: string) => member.replace(/\)\s*:\s*/, ') ');
const mermaidId = (id: string) => (/^[\w-]+$/.test(id) ? id : null);

/** A class or ER spec as Mermaid text, and what Mermaid cannot say. */
export function structureToMermaid(read: Read): { text: string; warnings: string[] } {
  const warnings: string[] = [];
  if (read.kind === 'er') {
    const spec = read.spec as ErSpecInput;
    const lines = ['erDiagram'];
    if (spec.caption) lines.splice(0, 0, '---', `title: ${spec.caption}`, '---');
    for (const raw of spec.entities ?? []) {
      if (typeof raw === 'string') continue;
      const head = `${entityName(raw.id)}${raw.label ? `["${raw.label.replace(/"/g, "'")}"]` : ''}`;
      if (!raw.attributes?.length) {
        lines.push(`  ${head} {`, '  }');
        continue;
      }
      lines.push(`  ${head} {`);
      for (const a of raw.attributes) {
        const attribute = typeof a === 'string' ? a : `${a.type} ${a.name}${a.keys?.length ? ` ${a.keys.join(', ')}` : ''}${a.comment ? ` "${a.comment.replace(/"/g, "'")}"` : ''}`;
        lines.push(`    ${attribute}`);
      }
      lines.push('  }');
    }
    for (const relation of spec.relationships ?? []) {
      if (typeof relation !== 'string') continue;
      const labelled = /\s:\s/.test(relation) ? relation.replace(/\s:\s*(.*)$/, (_, label: string) => ` : "${label.replace(/"/g, "'")}"`) : `${relation} : ""`;
      lines.push(`  ${labelled}`);
    }
    return { text: `${lines.join('\n')}\n`, warnings };
  }
  const spec = read.spec as ClassSpecInput;
  const lines = ['classDiagram'];
  if (spec.caption) lines.splice(0, 0, '---', `title: ${spec.caption}`, '---');
  const byNamespace = new Map<string, string[]>();
  const classLines = (raw: NonNullable<ClassSpecInput['classes']>[number], indent: string): string[] => {
    const c = typeof raw === 'string' ? { id: raw } : raw;
    const id = mermaidId(c.id);
    if (!id) {
      warnings.push(`the class id ${JSON.stringify(c.id)} is not one Mermaid reads`);
      return [];
    }
    const head = `class ${id}${c.generic ? `~${c.generic}~` : ''}${c.label ? `["${c.label.replace(/"/g, "'")}"]` : ''}`;
    const body = [...(c.annotation ? [`<<${c.annotation}>>`] : []), ...(c.attributes ?? []), ...(c.methods ?? []).map(memberLine)];
    return body.length === 0 ? [`${indent}${head}`] : [`${indent}${head} {`, ...body.map((line) => `${indent}  ${line}`), `${indent}}`];
  };
  for (const raw of spec.classes ?? []) {
    const ns = typeof raw === 'string' ? null : raw.namespace;
    if (ns) byNamespace.set(ns, [...(byNamespace.get(ns) ?? []), ...classLines(raw, '    ')]);
    else lines.push(...classLines(raw, '  '));
  }
  for (const [ns, members] of byNamespace) lines.push(`  namespace ${mermaidId(ns) ?? `ns${byNamespace.size}`} {`, ...members, '  }');
  for (const r of spec.relations ?? []) if (typeof r === 'string') lines.push(`  ${r}`);
  for (const n of spec.notes ?? []) lines.push(`  note ${n.for ? `for ${n.for} ` : ''}"${n.note.replace(/"/g, "'").replace(/\n/g, '<br>')}"`);
  return { text: `${lines.join('\n')}\n`, warnings };
}
