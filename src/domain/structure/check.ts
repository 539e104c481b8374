/**
 * What checking a class spec and an ER spec share: walking their lists with
 * each item named (`classes[2]`, `relations[4] "A <|-- B"`), boxes declared
 * once, boxes a relation names added as Mermaid adds them, ids kept clear of
 * the ones Drawbridge gives the parts it draws, the size caps.
 */
import { kindFieldHint } from '../hints.ts';
import { isPlainObject, quote } from '../payload.ts';
import { type ContentCode, type PathKey, type Problem, ProblemList, pointer } from '../problems.ts';
import type { Compartments } from '../scene/compartments.ts';
import { checkSpec } from '../spec/parse.ts';
import { DIRECTIONS, SPEC_LIMITS } from '../spec/types.ts';
import { flowInputOf } from './scene.ts';
import type { Direction } from '../layout/types.ts';
import type { Relation, StructureBox, StructureSpec } from './types.ts';

/** Suffixes of the ids Drawbridge gives a box's parts. */
const PART_SUFFIX = /-(label|group|divider-\d+|section-\d+(-\d+)?)$/;

export class StructureChecker {
  private readonly out = new ProblemList();
  private rank = 0;
  private readonly boxes = new Map<string, StructureBox>();
  private readonly relations: Relation[] = [];
  private readonly containers: Array<{ id: string; label: string }> = [];
  private readonly noteList: StructureSpec['notes'] = [];
  private readonly kind: 'class' | 'er';

  constructor(kind: 'class' | 'er', topFields: string[], input: Record<string, unknown>) {
    this.kind = kind;
    for (const key of Object.keys(input)) if (!topFields.includes(key)) this.problem([key], 'INVALID_SPEC', `spec has an unknown field ${quote(key)}`, kindFieldHint(kind, key, topFields));
    if (input.version !== undefined && input.version !== '1' && input.version !== 1) this.problem(['version'], 'UNSUPPORTED_VERSION', `spec.version ${JSON.stringify(input.version)} is not supported; use "1" or omit it`);
    const layout = input.layout;
    if (layout !== undefined && layout !== null) {
      if (!isPlainObject(layout)) this.problem(['layout'], 'INVALID_SPEC', 'spec.layout must be an object like { "direction": "LR" }');
      else {
        for (const key of Object.keys(layout)) if (key !== 'direction') this.problem(['layout', key], 'INVALID_SPEC', `spec.layout has an unknown field ${quote(key)}`, 'layout takes "direction" (TB, BT, LR or RL)');
        if (layout.direction !== undefined && layout.direction !== null && !(DIRECTIONS as readonly unknown[]).includes(layout.direction)) this.problem(['layout', 'direction'], 'INVALID_SPEC', `spec.layout.direction must be one of ${DIRECTIONS.join(', ')}; got ${JSON.stringify(layout.direction)}`);
      }
    }
    if (!this.isText(input.caption)) this.problem(['caption'], 'INVALID_SPEC', `spec.caption must be a string of at most ${SPEC_LIMITS.labelLength} characters`);
  }

  problem(path: PathKey[], code: ContentCode, message: string, hint?: string): void {
    this.out.schema([this.rank++], { code, message, path: pointer(path), ...(hint ? { hint } : {}) });
  }

  isId(value: unknown): value is string {
    return typeof value === 'string' && value.trim() !== '' && value.length <= SPEC_LIMITS.idLength;
  }

  isText(value: unknown): boolean {
    return value === undefined || value === null || (typeof value === 'string' && value.length <= SPEC_LIMITS.labelLength);
  }

  /** Whether an object has only the fields it may: each other one is a problem. */
  fields(raw: Record<string, unknown>, allowed: string[], path: PathKey[], where: string, hint: string): boolean {
    const extra = Object.keys(raw).filter((key) => !allowed.includes(key));
    for (const key of extra) this.problem([...path, key], 'INVALID_SPEC', `${where} has an unknown field ${quote(key)}`, hint);
    return extra.length === 0;
  }

  /** Each item of an optional list, named `list[i]`. */
  list(value: unknown, key: string, each: (raw: unknown, path: PathKey[], where: string) => void): void {
    if (value === undefined || value === null) return;
    if (!Array.isArray(value)) return this.problem([key], 'INVALID_SPEC', `spec.${key} must be an array`);
    const limit = key === 'relations' ? SPEC_LIMITS.edges : SPEC_LIMITS.nodes;
    if (value.length > limit) return this.problem([key], 'SPEC_TOO_LARGE', `spec has ${value.length} ${key}; the limit is ${limit}`);
    value.forEach((raw, i) => each(raw, [key, i], `${key}[${i}]`));
  }

  box(box: StructureBox, path: PathKey[], where: string): void {
    if (!this.isId(box.id)) return this.problem(path, 'MISSING_NODE_ID', `${where} must be a non-empty id of at most ${SPEC_LIMITS.idLength} characters`);
    if (this.boxes.has(box.id)) return this.problem(path, 'DUPLICATE_NODE_ID', `${where}: ${quote(box.id)} is declared twice`);
    this.boxes.set(box.id, box);
  }

  /** A relation; the boxes it names are added when undeclared, with `empty` compartments. */
  relation(relation: Relation, empty: Compartments): void {
    for (const id of [relation.from, relation.to]) if (!this.boxes.has(id)) this.boxes.set(id, { id, label: id, compartments: empty, parent: null });
    this.relations.push(relation);
  }

  container(id: string, label: string): void {
    this.containers.push({ id, label });
  }

  notes(value: unknown): void {
    this.list(value, 'notes', (raw, path, where) => {
      if (!isPlainObject(raw) || typeof raw.note !== 'string' || raw.note.length > SPEC_LIMITS.labelLength) return this.problem(path, 'INVALID_SPEC', `${where} must be { "note": "text", "for"?: id }`);
      if (!this.fields(raw, ['note', 'for'], path, where, 'a note takes note and for')) return;
      if (raw.for !== undefined && raw.for !== null && !this.isId(raw.for)) return this.problem([...path, 'for'], 'INVALID_SPEC', `${where}.for must be an id`);
      const target = typeof raw.for === 'string' ? raw.for : null;
      if (target !== null && !this.boxes.has(target)) return this.problem([...path, 'for'], 'DANGLING_EDGE', `${where} is for ${quote(target)}, which is not in the diagram`);
      this.noteList.push({ id: `note-${this.noteList.length + 1}`, text: raw.note, for: target });
    });
  }

  finish(input: Record<string, unknown>): { problems: Problem[]; spec: StructureSpec | null } {
    const ids = new Set(this.boxes.keys());
    for (const id of ids) {
      const base = id.replace(PART_SUFFIX, '');
      if (base !== id && ids.has(base)) this.out.add({ code: 'ID_COLLISION', message: `${quote(id)} has the id Drawbridge gives a part of ${quote(base)}`, path: '', hint: 'rename one of the two' });
      if (/^(note|namespace)-\d+$/.test(id)) this.out.add({ code: 'ID_COLLISION', message: `${quote(id)} is an id Drawbridge gives notes and namespaces`, path: '', hint: 'choose another id, or give this one as the label' });
    }
    if (this.boxes.size > SPEC_LIMITS.nodes) this.out.add({ code: 'SPEC_TOO_LARGE', message: `spec has ${this.boxes.size} ${this.kind === 'er' ? 'entities' : 'classes'}; the limit is ${SPEC_LIMITS.nodes}`, path: '' });
    if (this.out.list().length > 0) return { problems: this.out.list(), spec: null };
    const caption = typeof input.caption === 'string' ? input.caption : undefined;
    const structure = {
      kind: this.kind,
      direction: ((isPlainObject(input.layout) ? input.layout.direction : undefined) as Direction | null | undefined) ?? 'TB',
      boxes: [...this.boxes.values()],
      containers: this.containers,
      notes: this.noteList,
      relations: this.relations,
      ...(caption !== undefined ? { caption } : {}),
    };
    // Laid out as a flowchart, whose generated ids (an arrow's "<from>-to-<to>", its labels) may meet a box's.
    const { problems: clashes, spec: flow } = checkSpec(flowInputOf(structure), { isIcon: () => false });
    for (const clash of clashes) {
      this.out.add({ code: 'ID_COLLISION', message: `two parts of the drawing would share an id: ${clash.message}`, path: '', hint: `rename the ${this.kind === 'er' ? 'entity' : 'class'} whose id is the one Drawbridge gives a relation's arrow or label ("<from>-to-<to>", "…-label")` });
    }
    if (!flow) return { problems: this.out.list(), spec: null };
    return { problems: [], spec: { ...structure, flow } };
  }
}
