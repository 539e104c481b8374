/**
 * Mermaid class diagrams (`classDiagram`) and entity-relationship diagrams
 * (`erDiagram`) as the class and ER specs, read from Mermaid's own model.
 *
 * Class diagrams: classes in Mermaid's order with their name, generic type,
 * annotations (the first drawn «above» the name) and members as Mermaid
 * displays them (`+eat(food) : bool`), a static or abstract one marked `$` or
 * `*` as written; namespaces; relations with their heads at either end and
 * their multiplicities and label; notes for a class and free notes. Lollipop
 * interfaces, styles and click handlers are left out, warned.
 *
 * ER diagrams: entities with their alias and attributes (type, name, keys,
 * comment); relationships with the cardinality at each end, identifying or
 * not, and their label. Styles and classes are left out, warned.
 */
import { readLabel } from './labels.ts';
import type { SourceText, Warnings } from './source-text.ts';
import type { ClassSpecInput } from '../../structure/class-spec.ts';
import type { ErSpecInput } from '../../structure/er-spec.ts';

interface ClassMember {
  getDisplayDetails(): { displayText: string };
  classifier?: string;
}
interface MermaidClass {
  label: string;
  type: string;
  annotations: string[];
  members: ClassMember[];
  methods: ClassMember[];
  parent?: string;
  cssClasses?: string;
  styles?: string[];
}
export interface ClassDb {
  getClasses(): Map<string, MermaidClass>;
  getRelations(): Array<{ id1: string; id2: string; relation: { type1: number | string; type2: number | string; lineType: number }; relationTitle1: string; relationTitle2: string; title?: string }>;
  getNotes(): Map<string, { class?: string; text: string }>;
  getNamespaces?(): Map<string, unknown>;
  getDirection?(): string;
}

/** Mermaid's relation types at an end (its classDb relationType), as the mark written at the left and at the right. */
const LEFT_MARKS: Record<string, string> = { 0: 'o', 1: '<|', 2: '*', 3: '<' };
const RIGHT_MARKS: Record<string, string> = { 0: 'o', 1: '|>', 2: '*', 3: '>' };
const LOLLIPOP = 4;

const text = (raw: string | undefined) => readLabel(raw ?? '', undefined).text;
const quoted = (id: string) => (/^[^\s"]+$/.test(id) ? id : `"${id.replace(/["\\]/g, '\\$&')}"`);
const direction = (written: string | undefined) => (written && ['TB', 'BT', 'LR', 'RL'].includes(written) ? (written as 'TB') : written === 'TD' ? 'TB' : undefined);

/** A member as Mermaid displays it, with `$` (static) or `*` (abstract) after it as written. */
function member(m: ClassMember): string {
  const shown = text(m.getDisplayDetails().displayText);
  return m.classifier === '$' || m.classifier === '*' ? `${shown}${m.classifier}` : shown;
}

export function classSpec(db: ClassDb, source: SourceText, warnings: Warnings): ClassSpecInput {
  const lineOf = (pattern: RegExp) => source.find(pattern) ?? source.headerLine();
  const classes: NonNullable<ClassSpecInput['classes']> = [];
  for (const [id, c] of db.getClasses()) {
    const entry: Record<string, unknown> = { id };
    const label = text(c.label);
    if (label !== id && label !== '') entry.label = label;
    if (c.annotations.length > 0) entry.annotation = c.annotations[0];
    if (c.annotations.length > 1) warnings.add('annotations', lineOf(/<</), 'only the first annotation of a class is drawn');
    if (c.type) entry.generic = text(c.type);
    if (c.members.length > 0) entry.attributes = c.members.map(member);
    if (c.methods.length > 0) entry.methods = c.methods.map(member);
    if (c.parent) entry.namespace = c.parent;
    if ((c.styles?.length ?? 0) > 0 || (c.cssClasses && c.cssClasses !== 'default')) warnings.add('styles', lineOf(/^\s*(style|classDef|cssClass)\b|:::/), 'styles and classes of classes are not drawn');
    classes.push(entry as NonNullable<ClassSpecInput['classes']>[number]);
  }
  const relations = db.getRelations().map((r) => {
    const [left, right] = [r.relation.type1, r.relation.type2];
    if (left === LOLLIPOP || right === LOLLIPOP) warnings.add('lollipop', lineOf(/\(\)/), 'lollipop interfaces are drawn as plain links');
    const mark = `${LEFT_MARKS[String(left)] ?? ''}${r.relation.lineType === 1 ? '..' : '--'}${RIGHT_MARKS[String(right)] ?? ''}`;
    const ends = (title: string) => (title && title !== 'none' ? `"${title.replace(/"/g, "'")}" ` : '');
    const label = r.title ? ` : ${text(r.title)}` : '';
    return `${quoted(r.id1)} ${ends(r.relationTitle1)}${mark} ${ends(r.relationTitle2)}${quoted(r.id2)}${label}`.replace(/ +/g, ' ');
  });
  const notes = [...db.getNotes().values()].map((n) => ({ note: text(n.text), ...(n.class ? { for: n.class } : {}) }));
  if (source.find(/^\s*click\b|^\s*link\b|^\s*callback\b/) !== null) warnings.add('click', lineOf(/^\s*(click|link|callback)\b/), 'click handlers and links are not kept');
  const spec: ClassSpecInput = { kind: 'class', classes, relations };
  if (notes.length > 0) spec.notes = notes;
  const dir = direction(db.getDirection?.());
  if (dir && dir !== 'TB') spec.layout = { direction: dir };
  return spec;
}

interface ErEntity {
  id: string;
  label: string;
  alias: string;
  attributes: Array<{ type: string; name: string; keys: string[]; comment: string }>;
  cssStyles?: string[];
  cssClasses?: string;
}
export interface ErDb {
  getEntities(): Map<string, ErEntity>;
  getRelationships(): Array<{ entityA: string; roleA: string; entityB: string; relSpec: { cardA: string; cardB: string; relType: string } }>;
  getDirection?(): string;
}

/** Mermaid's cardinalities as the mark at the left end and at the right end. */
const ER_LEFT: Record<string, string> = { ONLY_ONE: '||', ZERO_OR_ONE: '|o', ONE_OR_MORE: '}|', ZERO_OR_MORE: '}o', MD_PARENT: '||' };
const ER_RIGHT: Record<string, string> = { ONLY_ONE: '||', ZERO_OR_ONE: 'o|', ONE_OR_MORE: '|{', ZERO_OR_MORE: 'o{', MD_PARENT: '||' };

export function erSpec(db: ErDb, source: SourceText, warnings: Warnings): ErSpecInput {
  const lineOf = (pattern: RegExp) => source.find(pattern) ?? source.headerLine();
  const names = new Map<string, string>();
  const entities: NonNullable<ErSpecInput['entities']> = [];
  for (const [name, e] of db.getEntities()) {
    names.set(e.id, name);
    const attributes = e.attributes.map((a) => ({ type: a.type, name: a.name, ...(a.keys.length > 0 ? { keys: a.keys as Array<'PK'> } : {}), ...(a.comment ? { comment: a.comment } : {}) }));
    const label = e.alias ? text(e.alias) : '';
    if ((e.cssStyles?.length ?? 0) > 0 || (e.cssClasses && e.cssClasses !== 'default')) warnings.add('styles', lineOf(/^\s*(style|classDef|class)\b|:::/), 'styles and classes of entities are not drawn');
    entities.push(attributes.length === 0 && !label ? name : { id: name, ...(label ? { label } : {}), ...(attributes.length > 0 ? { attributes } : {}) });
  }
  const relationships = db.getRelationships().map((r) => {
    const [a, b] = [names.get(r.entityA) ?? r.entityA, names.get(r.entityB) ?? r.entityB];
    if (r.relSpec.cardA === 'MD_PARENT' || r.relSpec.cardB === 'MD_PARENT') warnings.add('md-parent', lineOf(/u\|/), 'the many-to-one parent end (u) is drawn as exactly one');
    // Mermaid keeps the mark written at A's end as cardB, and the one at B's end as cardA.
    const mark = `${ER_LEFT[r.relSpec.cardB]}${r.relSpec.relType === 'NON_IDENTIFYING' ? '..' : '--'}${ER_RIGHT[r.relSpec.cardA]}`;
    const label = text(r.roleA);
    return `${quoted(a)} ${mark} ${quoted(b)}${label ? ` : ${label}` : ''}`;
  });
  const spec: ErSpecInput = { kind: 'er', entities, relationships };
  const dir = direction(db.getDirection?.());
  if (dir && dir !== 'TB') spec.layout = { direction: dir };
  return spec;
}
