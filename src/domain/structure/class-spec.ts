/**
 * The class diagram spec (`"kind": "class"`): its schema, and its check into
 * a StructureSpec. Classes have a name, an annotation (interface, abstract,
 * enumeration…), a generic parameter, attributes and methods written as
 * Mermaid writes them (`+name: String`, `+area() double`, `$` static, `*`
 * abstract), and a namespace; relations join them, as Mermaid's strings or
 * objects naming the relation's type.
 */
import { z } from 'zod';
import { isPlainObject } from '../payload.ts';
import type { Problem } from '../problems.ts';
import { SPEC_LIMITS } from '../spec/types.ts';
import { CLASS_RELATION_PATTERN, parseClassRelation } from './relations.ts';
import { StructureChecker } from './check.ts';
import type { EditorHead, Relation, StructureSpec } from './types.ts';

const RELATION_TYPES = ['inheritance', 'realization', 'composition', 'aggregation', 'association', 'dependency', 'link', 'dashedLink'] as const;
type RelationType = (typeof RELATION_TYPES)[number];

/** Each type of relation written from its upper end: which end of the object is `from`, the line and the heads. */
const TYPES: Record<RelationType, { upper: 'from' | 'to'; line: Relation['line']; upperHead: EditorHead; lowerHead: EditorHead }> = {
  inheritance: { upper: 'to', line: 'solid', upperHead: 'triangle_outline', lowerHead: 'none' },
  realization: { upper: 'to', line: 'dashed', upperHead: 'triangle_outline', lowerHead: 'none' },
  composition: { upper: 'from', line: 'solid', upperHead: 'diamond', lowerHead: 'none' },
  aggregation: { upper: 'from', line: 'solid', upperHead: 'diamond_outline', lowerHead: 'none' },
  association: { upper: 'from', line: 'solid', upperHead: 'none', lowerHead: 'arrow' },
  dependency: { upper: 'from', line: 'dashed', upperHead: 'none', lowerHead: 'arrow' },
  link: { upper: 'from', line: 'solid', upperHead: 'none', lowerHead: 'none' },
  dashedLink: { upper: 'from', line: 'dashed', upperHead: 'none', lowerHead: 'none' },
};

const Id = z.string().min(1).max(SPEC_LIMITS.idLength).regex(/\S/);
const Label = z.string().max(SPEC_LIMITS.labelLength);
const Member = z.string().max(SPEC_LIMITS.labelLength);

export const ClassSpec = z
  .strictObject({
    kind: z.literal('class').meta({ description: 'A class diagram' }),
    version: z.union([z.literal('1'), z.literal(1)]).optional(),
    layout: z.strictObject({ direction: z.enum(['TB', 'BT', 'LR', 'RL']).nullable().optional().meta({ description: 'TB (default: superclasses above), BT, LR or RL' }) }).nullable().optional(),
    classes: z
      .array(
        z.union([
          Id,
          z.strictObject({
            id: Id,
            label: Label.nullable().optional().meta({ description: 'The name shown; defaults to the id' }),
            annotation: Label.nullable().optional().meta({ description: 'interface, abstract, enumeration, service… drawn «annotation» above the name' }),
            generic: Label.nullable().optional().meta({ description: 'A generic parameter, drawn Name<T>' }),
            attributes: z.array(Member).max(SPEC_LIMITS.nodes).nullable().optional().meta({ description: 'Attributes as Mermaid writes them: "+name: String", "-id int", "$count" (static)' }),
            methods: z.array(Member).max(SPEC_LIMITS.nodes).nullable().optional().meta({ description: 'Methods as Mermaid writes them: "+area() double", "draw()*" (abstract), "create()$" (static)' }),
            namespace: Id.nullable().optional().meta({ description: 'The namespace (a container) the class sits in' }),
          }),
        ]),
      )
      .max(SPEC_LIMITS.nodes)
      .nullable()
      .optional()
      .meta({ description: 'The classes; classes a relation names without declaring them are added' }),
    relations: z
      .array(
        z.union([
          z.string().max(SPEC_LIMITS.shorthandLength).regex(new RegExp(CLASS_RELATION_PATTERN, 'u')).meta({ description: 'As Mermaid writes one: "Animal <|-- Dog", "Car *-- \\"4\\" Wheel : has", "Service ..> Repository"' }),
          z.strictObject({
            from: Id,
            to: Id,
            type: z.enum(RELATION_TYPES).nullable().optional().meta({ description: 'inheritance (from extends to), realization (from implements to), composition and aggregation (from is the whole), association (default), dependency (from uses to), link, dashedLink' }),
            label: Label.nullable().optional(),
            fromMultiplicity: Label.nullable().optional().meta({ description: 'Text beside the from end: "1", "0..*"' }),
            toMultiplicity: Label.nullable().optional(),
          }),
        ]),
      )
      .max(SPEC_LIMITS.edges)
      .nullable()
      .optional(),
    notes: z
      .array(z.strictObject({ note: Label, for: Id.nullable().optional().meta({ description: 'The class the note is about; absent: a note on the diagram' }) }))
      .max(SPEC_LIMITS.nodes)
      .nullable()
      .optional(),
    caption: Label.nullable().optional().meta({ description: 'A title drawn centred above the diagram' }),
  })
  .meta({
    id: 'ClassSpec',
    description: 'A class diagram: classes in compartments (name, attributes, methods) joined by relations with UML heads; laid out with superclasses above.',
    examples: [
      {
        kind: 'class',
        classes: [{ id: 'Shape', annotation: 'interface', methods: ['+area() double'] }, { id: 'Circle', attributes: ['-radius: double'], methods: ['+area() double'] }],
        relations: ['Shape <|.. Circle', { from: 'Drawing', to: 'Shape', type: 'aggregation', toMultiplicity: '*' }],
      },
    ],
  });
export type ClassSpecInput = z.input<typeof ClassSpec>;

const TOP_FIELDS = ['kind', 'version', 'layout', 'classes', 'relations', 'notes', 'caption'];
const CLASS_FIELDS = ['id', 'label', 'annotation', 'generic', 'attributes', 'methods', 'namespace'];
const RELATION_FIELDS = ['from', 'to', 'type', 'label', 'fromMultiplicity', 'toMultiplicity'];

/** Mermaid's generics, `List~Shape~`, as they are drawn: `List<Shape>`. */
export const generics = (text: string) => text.replace(/~([^~]*)~/g, '<$1>');

const strings = (value: unknown): value is string[] => Array.isArray(value) && value.every((v) => typeof v === 'string' && v.length <= SPEC_LIMITS.labelLength);

/** Every problem of a class spec, and with none, the diagram to draw. */
export function checkClassSpec(input: Record<string, unknown>, options: { isIcon: (id: string) => boolean }): { problems: Problem[]; spec: StructureSpec | null } {
  void options;
  const c = new StructureChecker('class', TOP_FIELDS, input);
  const namespaces = new Map<string, string>();
  c.list(input.classes, 'classes', (raw, path, where) => {
    if (typeof raw === 'string') return c.box({ id: raw, label: raw, compartments: { sections: [[], []] }, parent: null }, path, where);
    if (!isPlainObject(raw)) return c.problem(path, 'INVALID_SPEC', `${where} must be an id or an object { id, label?, annotation?, generic?, attributes?, methods?, namespace? }`);
    if (!c.fields(raw, CLASS_FIELDS, path, where, 'a class takes id, label, annotation, generic, attributes, methods and namespace')) return;
    if (!c.isId(raw.id)) return c.problem([...path, 'id'], 'MISSING_NODE_ID', `${where} needs an id`);
    for (const key of ['label', 'annotation', 'generic', 'namespace'] as const) if (!c.isText(raw[key])) return c.problem([...path, key], 'INVALID_SPEC', `${where}.${key} must be a string of at most ${SPEC_LIMITS.labelLength} characters`);
    for (const key of ['attributes', 'methods'] as const) if (raw[key] !== undefined && raw[key] !== null && !strings(raw[key])) return c.problem([...path, key], 'INVALID_SPEC', `${where}.${key} must be a list of strings such as "+name: String"`);
    const name = (typeof raw.label === 'string' ? raw.label : raw.id) + (typeof raw.generic === 'string' && raw.generic !== '' ? `<${raw.generic}>` : '');
    const label = typeof raw.annotation === 'string' && raw.annotation !== '' ? `«${raw.annotation}»\n${name}` : name;
    let parent: string | null = null;
    if (typeof raw.namespace === 'string' && raw.namespace.trim() !== '') {
      parent = namespaces.get(raw.namespace) ?? `namespace-${namespaces.size + 1}`;
      namespaces.set(raw.namespace, parent);
    }
    const rows = (key: 'attributes' | 'methods') => ((raw[key] as string[] | null | undefined) ?? []).map((member) => [generics(member)]);
    c.box({ id: raw.id, label: generics(label), compartments: { sections: [rows('attributes'), rows('methods')] }, parent }, path, where);
  });
  c.list(input.relations, 'relations', (raw, path, where) => {
    if (typeof raw === 'string') {
      const relation = parseClassRelation(raw);
      if (!relation) return c.problem(path, 'MALFORMED_SHORTHAND', `${where} ${JSON.stringify(raw.slice(0, 80))} is not a relation`, 'write it as Mermaid does, with spaces around the mark: "Animal <|-- Dog", "Car *-- Wheel : has", "A ..> B"');
      return c.relation(relation, { sections: [[], []] });
    }
    if (!isPlainObject(raw)) return c.problem(path, 'MALFORMED_EDGE', `${where} must be a string like "Animal <|-- Dog" or an object { from, to, type? }`);
    if (!c.fields(raw, RELATION_FIELDS, path, where, `a relation takes ${RELATION_FIELDS.join(', ')}`)) return;
    if (!c.isId(raw.from) || !c.isId(raw.to)) return c.problem(path, 'MALFORMED_EDGE', `${where} needs "from" and "to": class ids`);
    const type = (raw.type ?? 'association') as RelationType;
    if (!(RELATION_TYPES as readonly unknown[]).includes(type)) return c.problem([...path, 'type'], 'MALFORMED_EDGE', `${where}.type must be one of ${RELATION_TYPES.join(', ')}; got ${JSON.stringify(raw.type)}`);
    for (const key of ['label', 'fromMultiplicity', 'toMultiplicity'] as const) if (!c.isText(raw[key])) return c.problem([...path, key], 'MALFORMED_EDGE', `${where}.${key} must be a string`);
    const kind = TYPES[type];
    const [upper, lower] = kind.upper === 'from' ? [raw.from, raw.to] : [raw.to, raw.from];
    const [upperText, lowerText] = kind.upper === 'from' ? [raw.fromMultiplicity, raw.toMultiplicity] : [raw.toMultiplicity, raw.fromMultiplicity];
    c.relation({ from: upper, to: lower, line: kind.line, startHead: kind.upperHead, endHead: kind.lowerHead, label: (raw.label as string | null | undefined) ?? '', fromText: (upperText as string | null | undefined) ?? '', toText: (lowerText as string | null | undefined) ?? '' }, { sections: [[], []] });
  });
  c.notes(input.notes);
  for (const [name, id] of namespaces) c.container(id, name);
  return c.finish(input);
}
