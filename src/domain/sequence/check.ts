/**
 * Checks a sequence spec and fills in its defaults: every problem at once,
 * each naming its step as `steps[2]` or `steps[4].steps[1]` with a JSON
 * Pointer, in document order. Participants a step names without declaring
 * them are added in the order first named, as Mermaid adds them.
 */
import { kindFieldHint } from '../hints.ts';
import { isPlainObject, quote } from '../payload.ts';
import { type PathKey, type Problem, ProblemList, pointer } from '../problems.ts';
import { CAPTION_ID } from '../spec/parse.ts';
import { ARROWHEADS, type ArrowheadName, SPEC_LIMITS } from '../spec/types.ts';
import { parseMessageShorthand } from './shorthand.ts';
import { BRANCH_WORDS, type Branch, FRAME_KINDS, type FrameKind, type Message, type Participant, PARTICIPANT_TYPES, type ParticipantType, SEQUENCE_LIMITS, type SequenceSpec, type Step } from './types.ts';

export interface SequenceCheckOptions {
  isIcon: (id: string) => boolean;
}

const TOP_FIELDS = ['kind', 'version', 'participants', 'steps', 'autonumber', 'caption'];
const MESSAGE_FIELDS = ['from', 'to', 'label', 'line', 'arrowhead', 'startArrowhead', 'activate', 'deactivate', 'create', 'destroy'];
/** The icon a participant of a type is drawn with when it names none. */
export const TYPE_ICONS: Partial<Record<ParticipantType, string>> = { actor: 'icon-user', database: 'icon-database', queue: 'icon-queue' };
/** Suffixes of the element ids a participant's drawing takes (its box is the participant's id). */
const PARTICIPANT_SUFFIXES = ['-label', '-icon', '-lifeline', '-foot', '-foot-label', '-foot-icon', '-destroyed', '-destroyed-2'];
/** A participant's activation bars: `<id>-activation-<n>`. */
const ACTIVATION = /^(.+)-activation-\d+$/;
const GENERATED = /^(msg|note|frame)-\d+(-.*)?$/;

const isId = (v: unknown): v is string => typeof v === 'string' && v.trim() !== '' && v.length <= SPEC_LIMITS.idLength;
const isLabel = (v: unknown) => v === undefined || v === null || (typeof v === 'string' && v.length <= SPEC_LIMITS.labelLength);
const isFlag = (v: unknown) => v === undefined || v === null || typeof v === 'boolean';
const HINT_SHORTHAND = 'write a message as "from ->> to : label" (->> call, -->> reply, -) async, -x lost, + after the arrow activates the target)';

class Checker {
  readonly out = new ProblemList();
  private readonly participants = new Map<string, Participant>();
  private readonly order: string[] = [];
  /** Participants named by a step so far: a created one must not be. */
  private readonly seen = new Set<string>();
  private readonly active = new Map<string, number>();
  private count = 0;
  private messages = 0;
  private notes = 0;
  private frames = 0;
  private rank = 0;

  private readonly options: SequenceCheckOptions;

  constructor(options: SequenceCheckOptions) {
    this.options = options;
  }

  problem(path: PathKey[], code: Problem['code'], message: string, hint?: string) {
    this.out.schema([this.rank++], { code, message, path: pointer(path), ...(hint ? { hint } : {}) });
  }

  declare(raw: unknown, i: number) {
    const path: PathKey[] = ['participants', i];
    const where = `participants[${i}]`;
    if (typeof raw === 'string') return this.add({ id: raw, label: raw, type: 'participant', icon: null }, path, where);
    if (!isPlainObject(raw)) return this.problem(path, 'INVALID_SPEC', `${where} must be an id or an object { id, label?, type?, icon? }`);
    for (const key of Object.keys(raw)) if (!['id', 'label', 'type', 'icon'].includes(key)) this.problem([...path, key], 'INVALID_SPEC', `${where} has an unknown field ${quote(key)}`, 'a participant takes id, label, type and icon');
    if (!isId(raw.id)) return this.problem([...path, 'id'], 'MISSING_NODE_ID', `${where} needs an id: a non-empty string of at most ${SPEC_LIMITS.idLength} characters`);
    if (!isLabel(raw.label)) this.problem([...path, 'label'], 'INVALID_SPEC', `${where}.label must be a string of at most ${SPEC_LIMITS.labelLength} characters`);
    const type = raw.type ?? 'participant';
    if (!(PARTICIPANT_TYPES as readonly unknown[]).includes(type)) this.problem([...path, 'type'], 'INVALID_SPEC', `${where}.type must be one of ${PARTICIPANT_TYPES.join(', ')}; got ${JSON.stringify(raw.type)}`);
    let icon = TYPE_ICONS[type as ParticipantType] ?? null;
    if (raw.icon !== undefined && raw.icon !== null) {
      if (typeof raw.icon !== 'string' || !this.options.isIcon(raw.icon)) this.problem([...path, 'icon'], 'UNKNOWN_ICON', `${where}.icon ${JSON.stringify(raw.icon)} is not in the icon catalog`, 'search the catalog: GET /api/v1/icons?q=…');
      else icon = raw.icon;
    }
    const label = typeof raw.label === 'string' ? raw.label : raw.id;
    this.add({ id: raw.id, label, type: type as ParticipantType, icon }, path, where);
  }

  private add(participant: Participant, path: PathKey[], where: string) {
    if (!isId(participant.id)) return this.problem(path, 'MISSING_NODE_ID', `${where} must be a non-empty id of at most ${SPEC_LIMITS.idLength} characters`);
    if (this.participants.has(participant.id)) return this.problem(path, 'DUPLICATE_NODE_ID', `${where}: the participant ${quote(participant.id)} is declared twice`);
    if (this.reserved(participant.id, path, where)) return;
    this.participants.set(participant.id, participant);
    this.order.push(participant.id);
  }

  /** Ids already refused as the drawing's own, reported once. */
  private readonly refusedIds = new Set<string>();

  /** Whether an id is one the drawing gives its own parts (messages, notes, frames, the caption); if so, the problem. */
  private reserved(id: string, path: PathKey[], where: string): boolean {
    if (!GENERATED.test(id) && id !== CAPTION_ID) return false;
    if (this.refusedIds.has(id)) return true;
    this.refusedIds.add(id);
    this.problem(path, 'ID_COLLISION', `${where}: the id ${quote(id)} is one Drawbridge gives messages, notes, frames and the caption`, 'choose another id, or give this one as the label');
    return true;
  }

  /** A participant a step names: declared, or added now. */
  private named(id: string, path: PathKey[], where: string): void {
    this.seen.add(id);
    if (this.participants.has(id) || this.reserved(id, path, where)) return;
    this.participants.set(id, { id, label: id, type: 'participant', icon: null });
    this.order.push(id);
  }

  steps(raw: unknown, path: PathKey[], where: string, depth: number): Step[] {
    if (!Array.isArray(raw)) {
      this.problem(path, 'INVALID_SPEC', `${where} must be an array of steps`);
      return [];
    }
    const steps: Step[] = [];
    raw.forEach((item, i) => {
      this.count++;
      const step = this.step(item, [...path, i], `${where}[${i}]`, depth);
      if (step) steps.push(step);
    });
    return steps;
  }

  private step(raw: unknown, path: PathKey[], where: string, depth: number): Step | null {
    if (typeof raw === 'string') {
      const parsed = parseMessageShorthand(raw);
      if (!parsed) {
        this.problem(path, 'MALFORMED_SHORTHAND', `${where} ${JSON.stringify(raw.slice(0, 80))} is not a message`, HINT_SHORTHAND);
        return null;
      }
      return this.message({ ...parsed, create: false, destroy: null }, path, `${where} ${JSON.stringify(raw.slice(0, 80))}`);
    }
    if (!isPlainObject(raw)) {
      this.problem(path, 'INVALID_SPEC', `${where} must be a message (a string or an object), a note, an activate, a deactivate or a frame`);
      return null;
    }
    if ('frame' in raw) return this.frame(raw, path, where, depth);
    if ('note' in raw) return this.note(raw, path, where);
    if ('activate' in raw && !('from' in raw)) return this.activation('activate', raw, path, where);
    if ('deactivate' in raw && !('from' in raw)) return this.activation('deactivate', raw, path, where);
    return this.messageObject(raw, path, where);
  }

  private messageObject(raw: Record<string, unknown>, path: PathKey[], where: string): Message | null {
    let ok = true;
    const bad = (key: string, rule: string, hint?: string) => {
      ok = false;
      this.problem([...path, key], 'MALFORMED_EDGE', `${where}.${key} ${rule}`, hint);
    };
    for (const key of Object.keys(raw)) {
      if (!MESSAGE_FIELDS.includes(key)) {
        ok = false;
        this.problem([...path, key], 'MALFORMED_EDGE', `${where} has an unknown field ${quote(key)}`, `a message takes ${MESSAGE_FIELDS.join(', ')}; a note takes "note", a frame "frame"`);
      }
    }
    if (!isId(raw.from)) bad('from', 'must be a participant id');
    if (!isId(raw.to)) bad('to', 'must be a participant id');
    if (!isLabel(raw.label)) bad('label', `must be a string of at most ${SPEC_LIMITS.labelLength} characters`);
    if (raw.line !== undefined && raw.line !== null && raw.line !== 'solid' && raw.line !== 'dashed') bad('line', `must be solid or dashed; got ${JSON.stringify(raw.line)}`);
    for (const key of ['arrowhead', 'startArrowhead']) {
      const v = raw[key];
      if (v !== undefined && v !== null && !(ARROWHEADS as readonly unknown[]).includes(v)) bad(key, `must be one of ${ARROWHEADS.join(', ')}; got ${JSON.stringify(v)}`);
    }
    for (const key of ['activate', 'deactivate', 'create']) if (!isFlag(raw[key])) bad(key, 'must be true or false');
    if (raw.destroy !== undefined && raw.destroy !== null && raw.destroy !== 'from' && raw.destroy !== 'to') bad('destroy', `must be "from" or "to"; got ${JSON.stringify(raw.destroy)}`);
    if (!ok) return null;
    const name = `${where} "${raw.from as string} -> ${raw.to as string}"`;
    return this.message(
      {
        from: raw.from as string,
        to: raw.to as string,
        label: (raw.label as string | null | undefined) ?? '',
        line: (raw.line as Message['line'] | null | undefined) ?? 'solid',
        endArrowhead: (raw.arrowhead as ArrowheadName | null | undefined) ?? 'triangle',
        startArrowhead: (raw.startArrowhead as ArrowheadName | null | undefined) ?? 'none',
        activate: raw.activate === true,
        deactivate: raw.deactivate === true,
        create: raw.create === true,
        destroy: (raw.destroy as Message['destroy'] | undefined) ?? null,
      },
      path,
      name,
    );
  }

  private message(fields: Omit<Message, 'step' | 'id' | 'source'>, path: PathKey[], source: string): Message | null {
    if (fields.create) {
      if (this.seen.has(fields.to)) {
        this.problem([...path, 'create'], 'INVALID_SPEC', `${source} creates ${quote(fields.to)}, which an earlier step already names`, 'a created participant appears first at the message that creates it');
        return null;
      }
      if (fields.to === fields.from) {
        this.problem([...path, 'create'], 'INVALID_SPEC', `${source}: a participant cannot create itself`);
        return null;
      }
    }
    this.named(fields.from, path, source);
    this.named(fields.to, path, source);
    if (fields.deactivate && !this.deactivate(fields.from)) {
      this.problem(path, 'INVALID_SPEC', `${source} ends the activation of ${quote(fields.from)}, which is not active`, 'activate it first: a + after an earlier arrow to it, or { "activate": … }');
      return null;
    }
    if (fields.activate) this.active.set(fields.to, (this.active.get(fields.to) ?? 0) + 1);
    this.messages++;
    return { step: 'message', id: `msg-${this.messages}`, ...fields, source };
  }

  private deactivate(id: string): boolean {
    const count = this.active.get(id) ?? 0;
    if (count === 0) return false;
    this.active.set(id, count - 1);
    return true;
  }

  private activation(kind: 'activate' | 'deactivate', raw: Record<string, unknown>, path: PathKey[], where: string): Step | null {
    const extra = Object.keys(raw).find((k) => k !== kind);
    if (extra !== undefined) {
      this.problem([...path, extra], 'INVALID_SPEC', `${where} has an unknown field ${quote(extra)}`, `{ "${kind}": "participant id" } takes nothing else`);
      return null;
    }
    const id = raw[kind];
    if (!isId(id)) {
      this.problem([...path, kind], 'INVALID_SPEC', `${where}.${kind} must be a participant id`);
      return null;
    }
    this.named(id, [...path, kind], where);
    if (kind === 'activate') this.active.set(id, (this.active.get(id) ?? 0) + 1);
    else if (!this.deactivate(id)) {
      this.problem(path, 'INVALID_SPEC', `${where} deactivates ${quote(id)}, which is not active`);
      return null;
    }
    return { step: kind, participant: id };
  }

  private note(raw: Record<string, unknown>, path: PathKey[], where: string): Step | null {
    const extra = Object.keys(raw).find((k) => !['note', 'over', 'leftOf', 'rightOf'].includes(k));
    if (extra !== undefined) {
      this.problem([...path, extra], 'INVALID_SPEC', `${where} has an unknown field ${quote(extra)}`, 'a note takes "note" and one of "over", "leftOf", "rightOf"');
      return null;
    }
    if (typeof raw.note !== 'string' || raw.note.length > SPEC_LIMITS.labelLength) {
      this.problem([...path, 'note'], 'INVALID_SPEC', `${where}.note must be the note's text, at most ${SPEC_LIMITS.labelLength} characters`);
      return null;
    }
    const places = (['over', 'leftOf', 'rightOf'] as const).filter((k) => raw[k] !== undefined);
    if (places.length !== 1) {
      this.problem(path, 'INVALID_SPEC', `${where} needs exactly one of "over", "leftOf" and "rightOf"; it has ${places.length === 0 ? 'none' : places.join(' and ')}`, '{ "note": "…", "over": "api" }, or "over": ["a", "b"] to span two participants');
      return null;
    }
    const placement = places[0]!;
    const value = raw[placement];
    const ids = Array.isArray(value) && placement === 'over' ? value : [value];
    if (ids.length < 1 || ids.length > 2 || !ids.every(isId)) {
      this.problem([...path, placement], 'INVALID_SPEC', placement === 'over' ? `${where}.over must be a participant id or a list of one or two` : `${where}.${placement} must be a participant id`);
      return null;
    }
    for (const id of ids as string[]) this.named(id, [...path, placement], where);
    this.notes++;
    const unique = [...new Set(ids as string[])];
    return { step: 'note', id: `note-${this.notes}`, text: raw.note, placement, participants: unique };
  }

  private frame(raw: Record<string, unknown>, path: PathKey[], where: string, depth: number): Step | null {
    const extra = Object.keys(raw).find((k) => !['frame', 'label', 'color', 'steps', 'branches'].includes(k));
    if (extra !== undefined) this.problem([...path, extra], 'INVALID_SPEC', `${where} has an unknown field ${quote(extra)}`, 'a frame takes frame, label, steps, branches and (rect) color');
    const kind = raw.frame;
    if (!(FRAME_KINDS as readonly unknown[]).includes(kind)) {
      this.problem([...path, 'frame'], 'INVALID_SPEC', `${where}.frame must be one of ${FRAME_KINDS.join(', ')}; got ${JSON.stringify(kind)}`);
      return null;
    }
    if (depth >= SEQUENCE_LIMITS.depth) {
      this.problem(path, 'SPEC_TOO_LARGE', `${where}: frames nest ${depth + 1} deep; the limit is ${SEQUENCE_LIMITS.depth}`);
      return null;
    }
    if (!isLabel(raw.label)) this.problem([...path, 'label'], 'INVALID_SPEC', `${where}.label must be a string of at most ${SPEC_LIMITS.labelLength} characters`);
    if (raw.color !== undefined && raw.color !== null && (kind !== 'rect' || typeof raw.color !== 'string')) this.problem([...path, 'color'], 'INVALID_SPEC', `${where}.color applies to a rect frame, as a CSS colour`);
    const id = `frame-${++this.frames}`;
    const branches: Branch[] = [{ label: typeof raw.label === 'string' ? raw.label : '', steps: this.steps(raw.steps ?? [], [...path, 'steps'], `${where}.steps`, depth + 1) }];
    if (raw.branches !== undefined && raw.branches !== null) {
      const word = BRANCH_WORDS[kind as FrameKind];
      if (!word) this.problem([...path, 'branches'], 'INVALID_SPEC', `${where}: a ${kind as string} frame has no branches`, 'alt takes else branches, par and branches, critical option branches');
      else if (!Array.isArray(raw.branches)) this.problem([...path, 'branches'], 'INVALID_SPEC', `${where}.branches must be an array of { label, steps }`);
      else {
        raw.branches.forEach((branch: unknown, b: number) => {
          const at = [...path, 'branches', b];
          if (!isPlainObject(branch) || !isLabel(branch.label)) {
            this.problem(at, 'INVALID_SPEC', `${where}.branches[${b}] must be { "label": "…", "steps": [...] }`);
            return;
          }
          branches.push({ label: typeof branch.label === 'string' ? branch.label : '', steps: this.steps(branch.steps ?? [], [...at, 'steps'], `${where}.branches[${b}].steps`, depth + 1) });
        });
      }
    }
    const color = kind === 'rect' && typeof raw.color === 'string' ? raw.color : null;
    return { step: 'frame', id, kind: kind as FrameKind, branches, color };
  }

  finish(): Participant[] {
    const ids = new Set(this.order);
    for (const id of this.order) {
      for (const suffix of PARTICIPANT_SUFFIXES) if (ids.has(id + suffix)) this.out.add({ code: 'ID_COLLISION', message: `the participant ${quote(id + suffix)} has the id Drawbridge gives a part of ${quote(id)}'s drawing`, path: '/participants', hint: 'rename one of the two' });
      const bar = ACTIVATION.exec(id);
      if (bar && ids.has(bar[1]!)) this.out.add({ code: 'ID_COLLISION', message: `the participant ${quote(id)} has the id Drawbridge gives an activation bar of ${quote(bar[1]!)}`, path: '/participants', hint: 'rename one of the two' });
    }
    if (this.count > SEQUENCE_LIMITS.steps) this.out.add({ code: 'SPEC_TOO_LARGE', message: `spec has ${this.count} steps in all; the limit is ${SEQUENCE_LIMITS.steps}`, path: '/steps' });
    if (this.order.length > SEQUENCE_LIMITS.participants) this.out.add({ code: 'SPEC_TOO_LARGE', message: `spec has ${this.order.length} participants; the limit is ${SEQUENCE_LIMITS.participants}`, path: '/participants' });
    return this.order.map((id) => this.participants.get(id)!);
  }
}

/** Every problem of a sequence spec, and with none, the spec with its defaults filled in and its ids assigned. */
export function checkSequenceSpec(input: Record<string, unknown>, options: SequenceCheckOptions): { problems: Problem[]; spec: SequenceSpec | null } {
  const checker = new Checker(options);
  for (const key of Object.keys(input)) {
    if (!TOP_FIELDS.includes(key)) checker.problem([key], 'INVALID_SPEC', `spec has an unknown field ${quote(key)}`, kindFieldHint('sequence', key, TOP_FIELDS));
  }
  if (input.version !== undefined && input.version !== '1' && input.version !== 1) checker.problem(['version'], 'UNSUPPORTED_VERSION', `spec.version ${JSON.stringify(input.version)} is not supported; use "1" or omit it`);
  if (input.participants !== undefined && input.participants !== null) {
    if (!Array.isArray(input.participants)) checker.problem(['participants'], 'INVALID_SPEC', 'spec.participants must be an array');
    else input.participants.forEach((raw, i) => checker.declare(raw, i));
  }
  if (input.steps === undefined) checker.problem(['steps'], 'INVALID_SPEC', 'a sequence spec needs "steps": its messages, notes and frames in order', 'for example "steps": ["browser ->> api : GET /me", "api -->> browser : 200"]');
  const steps = input.steps === undefined ? [] : checker.steps(input.steps, ['steps'], 'steps', 0);
  if (!isFlag(input.autonumber)) checker.problem(['autonumber'], 'INVALID_SPEC', 'spec.autonumber must be true or false');
  if (!isLabel(input.caption)) checker.problem(['caption'], 'INVALID_SPEC', `spec.caption must be a string of at most ${SPEC_LIMITS.labelLength} characters`);
  const participants = checker.finish();
  const problems = checker.out.list();
  if (problems.length > 0) return { problems, spec: null };
  const caption = typeof input.caption === 'string' ? input.caption : undefined;
  return { problems, spec: { kind: 'sequence', participants, steps, autonumber: input.autonumber === true, ...(caption !== undefined ? { caption } : {}) } };
}
