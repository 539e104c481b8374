/**
 * The one line a person reads of a delta: "moved db, relabelled api as
 * gateway, deleted cache and its arrows". What follows from another change
 * goes unsaid: a label moving with its shape, arrows re-routed because a
 * shape they bind to moved, came or went, a shape's boundElements mirroring
 * an arrow or a label, an icon moving or going with its shape, a shape
 * re-fitting a new label.
 */
import type { SceneElement } from '../edit/types.ts';
import { aspectOfField, aspectsOf, type ChangeAspect, changedFields } from './aspects.ts';
import { MAX_NAME, nameOf, shortName, typeName } from './names.ts';
import { endId, endIds, groupsOf, isArrow, isLive, type SceneSides, type Side } from './scene-sides.ts';

const NO_CHANGES = 'no changes to the elements';
const MAX_SUMMARY = 200;
const MAX_PARTS = 4;
/** How many elements a "brought … to front" may name before it is just "reordered elements". */
const MAX_SHIFTED = 8;

type Kind = 'shape' | 'arrow' | 'text';

/** One thing the summary says of an element, under a verb. */
interface Mention {
  kind: Kind;
  name: string;
}

interface Relabel extends Mention {
  from: string;
  /** The container had no label before. */
  fresh: boolean;
}

/**
 * Whether changed fields restyle an element: a style field changed, other than the font size (and line
 * height) of a text whose text changed too, which shrinks to fit its new words: that is the relabel.
 */
function restyled(fields: ReadonlySet<string>): boolean {
  return [...fields].some((field) => aspectOfField(field) === 'style' && !(fields.has('text') && (field === 'fontSize' || field === 'lineHeight')));
}

/** The summary's parts come in this order. */
const VERBS = ['moved', 'resized', 'rotated', 're-routed', 'reshaped', 'relabelled', 'unlabelled', 'restyled', 'reconnected', 'disconnected', 'added', 'deleted', 'changed'] as const;
type Verb = (typeof VERBS)[number];

/**
 * The summary of a delta whose element changes are listed: `added` and
 * `removed` ids, and the changed fields of each changed id.
 */
export function summarize(sides: SceneSides, changes: { added: readonly string[]; removed: readonly string[]; changedFields: ReadonlyMap<string, string[]> }, order: readonly string[] | undefined): string {
  const parts = new Story(sides, changes.changedFields).tell(changes.added, changes.removed);
  const reorder = order === undefined ? null : reorderPart(sides, order);
  if (reorder !== null) parts.push(reorder);
  const count = changes.added.length + changes.removed.length + changes.changedFields.size;
  if (parts.length === 0) return count === 0 ? NO_CHANGES : `changed ${count} ${count === 1 ? 'element' : 'elements'}`;
  return joinParts(parts);
}

/** The parts joined by ", ": at most MAX_PARTS of them and MAX_SUMMARY characters, "and more" when some are left out. */
function joinParts(parts: readonly string[]): string {
  const more = ' and more';
  const kept: string[] = [];
  for (const part of parts) {
    if (kept.length === MAX_PARTS || (kept.length > 0 && [...kept, part].join(', ').length + more.length > MAX_SUMMARY)) break;
    kept.push(part);
  }
  const line = kept.join(', ') + (kept.length < parts.length ? more : '');
  return line.length <= MAX_SUMMARY ? line : `${line.slice(0, MAX_SUMMARY - 1)}…`;
}

const kindOf = (element: SceneElement): Kind => (isArrow(element) ? 'arrow' : element.type === 'text' ? 'text' : 'shape');

/** Which verb a geometry change reads as: the most telling field wins. */
function geometryVerb(element: SceneElement, fields: ReadonlySet<string>): Verb {
  if (fields.has('points') || fields.has('lastCommittedPoint')) return isArrow(element) ? 're-routed' : 'reshaped';
  if (fields.has('width') || fields.has('height') || fields.has('scale') || fields.has('crop')) return 'resized';
  if (fields.has('angle') && !fields.has('x') && !fields.has('y')) return 'rotated';
  return 'moved';
}

/** Collects what each element's change says, under its verb, then tells it part by part. */
class Story {
  private readonly mentions = new Map<Verb, Map<string, Mention>>(VERBS.map((verb) => [verb, new Map()]));
  private readonly relabels = new Map<string, Relabel>();
  private deletions: string[] = [];

  private readonly sides: SceneSides;
  private readonly changedFields: ReadonlyMap<string, string[]>;
  constructor(sides: SceneSides, changedFields: ReadonlyMap<string, string[]>) {
    this.sides = sides;
    this.changedFields = changedFields;
  }

  tell(added: readonly string[], removed: readonly string[]): string[] {
    // What a person sees come, go or change: elements flagged isDeleted are not there to see.
    const appeared: string[] = [];
    const disappeared: string[] = [];
    const lasting: string[] = [];
    for (const id of [...removed, ...this.changedFields.keys(), ...added]) {
      const was = isLive(this.sides.before(id));
      const is = isLive(this.sides.after(id));
      if (!was && is) appeared.push(id);
      else if (was && !is) disappeared.push(id);
      else if (was && is) lasting.push(id);
    }
    // Shapes whose outline changed, came or went: the arrows bound to them re-route with them.
    const reshaped = new Set([...appeared, ...disappeared]);
    for (const id of lasting) {
      const element = this.sides.after(id)!;
      if (!isArrow(element) && !this.sides.isLabel('after', element) && this.fields(id).some((f) => aspectOfField(f) === 'geometry')) reshaped.add(id);
    }
    for (const id of lasting) this.lasting(id, reshaped);
    this.appeared(appeared);
    this.disappeared(disappeared);
    return VERBS.flatMap((verb) => this.partsOf(verb)).filter((part) => part !== '');
  }

  private fields(id: string): string[] {
    return this.changedFields.get(id) ?? [];
  }

  private mention(verb: Verb, side: Side, element: SceneElement): void {
    this.mentions.get(verb)!.set(element.id, { kind: kindOf(element), name: nameOf(this.sides, side, element.id) });
  }

  private relabel(container: SceneElement, from: string, to: string, fresh: boolean): void {
    if (from !== to) this.relabels.set(container.id, { kind: kindOf(container), name: to, from, fresh });
  }

  /** An image drawn as a shape's icon: grouped with a shape among `ids`. */
  private isIconOf(side: Side, element: SceneElement, ids: ReadonlySet<string>): boolean {
    const groups = groupsOf(element);
    if (element.type !== 'image' || groups.length === 0) return false;
    for (const id of ids) {
      const other = this.sides.get(side, id);
      if (other && other.type !== 'image' && groupsOf(other).some((g) => groups.includes(g))) return true;
    }
    return false;
  }

  /** Whether a container's label changed in a way that re-fits the container: came, went, new text or style. */
  private labelRefitted(containerId: string): boolean {
    const was = this.sides.label('before', containerId);
    const is = this.sides.label('after', containerId);
    if (was === undefined || is === undefined) return was !== is;
    return changedFields(was, is).some((field) => field === 'text' || aspectOfField(field) === 'style');
  }

  /** An element there before and after, changed. */
  private lasting(id: string, reshaped: ReadonlySet<string>): void {
    const element = this.sides.after(id)!;
    const previous = this.sides.before(id)!;
    const fields = new Set(this.fields(id));
    const aspects = new Set(aspectsOf([...fields]));
    const only = (...allowed: ChangeAspect[]) => [...aspects].every((a) => allowed.includes(a));

    if (this.sides.isLabel('after', element) && this.sides.isLabel('before', previous) && element.containerId === previous.containerId) {
      // A label is told as its container's; where it sits is its container's business.
      const container = this.sides.after(element.containerId as string)!;
      const fallback = typeName(container.type);
      if (fields.has('text')) this.relabel(container, shortName(previous.text) ?? fallback, shortName(element.text) ?? fallback, false);
      if (restyled(fields)) this.mention('restyled', 'after', container);
      if (aspects.has('binding') || aspects.has('other')) this.mention('changed', 'after', element);
      return;
    }
    if (only('geometry') && this.isIconOf('after', element, reshaped)) return;
    if (isArrow(element) && only('geometry', 'binding') && [...endIds(previous), ...endIds(element)].some((end) => reshaped.has(end))) return;

    // An arrow that lost an end is still best known by the ends it had.
    const side: Side = endIds(element).length < endIds(previous).length ? 'before' : 'after';
    if (aspects.has('geometry')) {
      const verb = geometryVerb(element, fields);
      // A text re-fits its box to a new text, and a container re-fits its label: the relabel tells it.
      if (!(verb === 'resized' && (fields.has('text') || this.labelRefitted(id)))) this.mention(verb, side, element);
    }
    if (restyled(fields)) this.mention('restyled', side, element);
    if (fields.has('text')) this.relabel(element, shortName(previous.text) ?? 'a text', shortName(element.text) ?? 'a text', false);
    const ends = (e: SceneElement) => [endId(e, 'startBinding'), endId(e, 'endBinding')];
    const [wasEnds, isEnds] = [ends(previous), ends(element)];
    if (isEnds.some((end, i) => end !== null && end !== wasEnds[i])) this.mention('reconnected', 'after', element);
    else if (wasEnds.some((end, i) => end !== null && isEnds[i] === null) && !aspects.has('geometry')) this.mention('disconnected', 'before', element);
    // boundElements mirrors the other side of a binding or a label, told with that other side; originalText follows text.
    const told = new Set(['boundElements', 'startBinding', 'endBinding', ...(fields.has('text') ? ['text', 'originalText', 'autoResize'] : [])]);
    const untold = [...fields].some((f) => !told.has(f) && (aspectOfField(f) === 'binding' || aspectOfField(f) === 'text'));
    if (aspects.has('other') || untold) this.mention('changed', 'after', element);
  }

  private appeared(ids: readonly string[]): void {
    const set = new Set(ids);
    for (const id of ids) {
      const element = this.sides.after(id)!;
      if (this.sides.isLabel('after', element)) {
        const containerId = element.containerId as string;
        if (set.has(containerId)) continue;
        const fresh = this.sides.label('before', containerId) === undefined;
        const to = shortName(element.text) ?? nameOf(this.sides, 'after', containerId);
        this.relabel(this.sides.after(containerId)!, nameOf(this.sides, 'before', containerId), to, fresh);
      } else if (!this.isIconOf('after', element, set)) this.mention('added', 'after', element);
    }
  }

  /** Elements gone: "deleted cache and its arrows" when every arrow that went was bound to a shape that went. */
  private disappeared(ids: readonly string[]): void {
    const set = new Set(ids);
    const shapes: Mention[] = [];
    const arrows: SceneElement[] = [];
    for (const id of ids) {
      const element = this.sides.before(id)!;
      if (this.sides.isLabel('before', element)) {
        const containerId = element.containerId as string;
        const container = this.sides.after(containerId);
        if (!set.has(containerId) && isLive(container)) this.mention('unlabelled', 'before', this.sides.before(containerId)!);
      } else if (isArrow(element)) arrows.push(element);
      else if (!this.isIconOf('before', element, set)) shapes.push({ kind: kindOf(element), name: nameOf(this.sides, 'before', id) });
    }
    const arrowMentions = arrows.map((arrow) => ({ kind: 'arrow' as const, name: nameOf(this.sides, 'before', arrow.id) }));
    const boundToGone = (arrow: SceneElement) => endIds(arrow).some((end) => set.has(end) && !isArrow(this.sides.before(end)!));
    if (shapes.length > 0 && arrows.length > 0 && arrows.every(boundToGone)) {
      const theirs = shapes.length > 1 ? 'their arrows' : arrows.length > 1 ? 'its arrows' : 'its arrow';
      const names = shapes.length <= 3 && namesDiffer(shapes) ? shapes.map((m) => m.name).join(', ') : countOf(shapes);
      this.deletions = [`deleted ${names} and ${theirs}`];
    } else this.deletions = [listPart('deleted', shapes), listPart('deleted', arrowMentions)];
  }

  private partsOf(verb: Verb): string[] {
    const mentions = [...this.mentions.get(verb)!.values()];
    switch (verb) {
      case 'deleted':
        return this.deletions;
      case 'relabelled':
        return [this.relabelPart()];
      case 'added':
        return [listPart('added', mentions.filter((m) => m.kind !== 'arrow')), listPart('added', mentions.filter((m) => m.kind === 'arrow'))];
      case 'changed':
        return mentions.length === 0 ? [] : [`changed ${mentions.length} ${mentions.length === 1 ? 'element' : 'elements'}`];
      default:
        return [listPart(verb, mentions)];
    }
  }

  /** "relabelled db as orders store" for one (its new name alone when both are long), else the new names. */
  private relabelPart(): string {
    const all = [...this.relabels.values()];
    const verb = all.every((r) => r.fresh) ? 'labelled' : 'relabelled';
    if (all.length !== 1) return listPart(verb, all);
    const { from, name } = all[0]!;
    return from.length + name.length <= 2 * MAX_NAME - 8 ? `${verb} ${from} as ${name}` : `${verb} ${name}`;
  }
}

function namesDiffer(mentions: readonly Mention[]): boolean {
  return new Set(mentions.map((m) => m.name)).size === mentions.length;
}

/** "3 shapes", "2 arrows", "4 elements" when they are of several kinds. */
function countOf(mentions: readonly Mention[]): string {
  const kinds = new Set(mentions.map((m) => m.kind));
  const noun = kinds.size > 1 ? 'element' : kinds.has('arrow') ? 'arrow' : kinds.has('text') ? 'text' : 'shape';
  return `${mentions.length} ${noun}${mentions.length === 1 ? '' : 's'}`;
}

/** "moved api, db and cache", or "moved 5 shapes" past three (or when names repeat); '' for none. */
function listPart(verb: string, mentions: readonly Mention[]): string {
  if (mentions.length === 0) return '';
  if (mentions.length > 3 || !namesDiffer(mentions)) return `${verb} ${countOf(mentions)}`;
  const names = mentions.map((m) => m.name);
  return `${verb} ${names.length === 1 ? names[0] : `${names.slice(0, -1).join(', ')} and ${names[names.length - 1]}`}`;
}

/**
 * A reorder: "brought db to front" when a few elements went to the top of
 * the stack with the rest keeping their order, "sent … to back" likewise,
 * else "reordered elements". Null when the elements kept keep their order
 * (new ones merely placed among them).
 */
function reorderPart(sides: SceneSides, order: readonly string[]): string | null {
  const was = sides.elements.map((e) => e.id).filter((id) => sides.presentAfter(id));
  const is = order.filter((id) => sides.beforeIndexOf(id) !== -1);
  if (was.length === is.length && was.every((id, i) => id === is[i])) return null;
  for (let k = 1; k <= Math.min(MAX_SHIFTED, is.length - 1); k++) {
    for (const [shifted, rest, verb, where] of [
      [is.slice(-k), is.slice(0, -k), 'brought', 'to front'],
      [is.slice(0, k), is.slice(k), 'sent', 'to back'],
    ] as const) {
      const moved = new Set(shifted);
      const others = was.filter((id) => !moved.has(id));
      if (others.length !== rest.length || !others.every((id, i) => id === rest[i])) continue;
      // A label goes with its container: name the container only.
      const shown = shifted
        .map((id) => sides.after(id)!)
        .filter((e) => isLive(e) && !(e.type === 'text' && typeof e.containerId === 'string' && moved.has(e.containerId)));
      if (shown.length === 0) return 'reordered elements';
      return `${listPart(verb, shown.map((e) => ({ kind: kindOf(e), name: nameOf(sides, 'after', e.id) })))} ${where}`;
    }
  }
  return 'reordered elements';
}
