/**
 * The entity-relationship spec (`"kind": "er"`): its schema, and its check
 * into a StructureSpec. Entities have attributes (type, name, keys PK / FK /
 * UK, a comment), drawn as a table in the entity's box; relationships join
 * them with crow's-foot ends, solid when identifying and dashed when not.
 */
import { z } from 'zod';
import { isPlainObject } from '../payload.ts';
import type { Problem } from '../problems.ts';
import { SPEC_LIMITS } from '../spec/types.ts';
import { StructureChecker } from './check.ts';
import { CARDINALITIES, type Cardinality, cardinalityEnd, ER_RELATION_PATTERN, parseErRelation } from './relations.ts';
import type { StructureSpec } from './types.ts';

const KEYS = ['PK', 'FK', 'UK'] as const;
const Id = z.string().min(1).max(SPEC_LIMITS.idLength).regex(/\S/);
const Label = z.string().max(SPEC_LIMITS.labelLength);
const ATTRIBUTE = /^\s*(\S+)\s+(\S+)((?:\s*,?\s*(?:PK|FK|UK))*)\s*(?:"([^"]*)")?\s*$/;

const Attribute = z.union([
  z.string().max(SPEC_LIMITS.labelLength).regex(ATTRIBUTE).meta({ description: 'As Mermaid writes one: "string email UK \\"login name\\"", "int id PK", "int customer_id FK"' }),
  z.strictObject({
    type: Label,
    name: Label,
    keys: z.array(z.enum(KEYS)).max(3).nullable().optional().meta({ description: 'PK, FK, UK' }),
    comment: Label.nullable().optional(),
  }),
]);

export const ErSpec = z
  .strictObject({
    kind: z.literal('er').meta({ description: 'An entity-relationship diagram' }),
    version: z.union([z.literal('1'), z.literal(1)]).optional(),
    layout: z.strictObject({ direction: z.enum(['TB', 'BT', 'LR', 'RL']).nullable().optional().meta({ description: 'TB (default), BT, LR or RL' }) }).nullable().optional(),
    entities: z
      .array(z.union([Id, z.strictObject({ id: Id, label: Label.nullable().optional(), attributes: z.array(Attribute).max(SPEC_LIMITS.nodes).nullable().optional() })]))
      .max(SPEC_LIMITS.nodes)
      .nullable()
      .optional()
      .meta({ description: 'The entities; entities a relationship names without declaring them are added' }),
    relationships: z
      .array(
        z.union([
          z.string().max(SPEC_LIMITS.shorthandLength).regex(new RegExp(ER_RELATION_PATTERN, 'u')).meta({ description: 'As Mermaid writes one: "CUSTOMER ||--o{ ORDER : places" (|| one, |o zero or one, }| one or more, }o zero or more; .. non-identifying)' }),
          z.strictObject({
            from: Id,
            to: Id,
            fromCardinality: z.enum(CARDINALITIES).meta({ description: 'one, zeroOrOne, oneOrMore or zeroOrMore' }),
            toCardinality: z.enum(CARDINALITIES),
            label: Label.nullable().optional(),
            identifying: z.boolean().nullable().optional().meta({ description: 'true (default): a solid line; false: dashed' }),
          }),
        ]),
      )
      .max(SPEC_LIMITS.edges)
      .nullable()
      .optional(),
    caption: Label.nullable().optional().meta({ description: 'A title drawn centred above the diagram' }),
  })
  .meta({
    id: 'ErSpec',
    description: "An entity-relationship diagram: entities with their attributes as a table, relationships with crow's-foot ends.",
    examples: [{ kind: 'er', entities: [{ id: 'CUSTOMER', attributes: ['int id PK', 'string email UK'] }, { id: 'ORDER', attributes: ['int id PK', 'int customer_id FK'] }], relationships: ['CUSTOMER ||--o{ ORDER : places'] }],
  });
export type ErSpecInput = z.input<typeof ErSpec>;

const TOP_FIELDS = ['kind', 'version', 'layout', 'entities', 'relationships', 'caption'];
/** An entity without attributes is its name alone. */
const EMPTY = { sections: [] };

/** An attribute as its table row: type, name, keys, comment. */
export function attributeRow(raw: unknown): string[] | null {
  if (typeof raw === 'string') {
    const match = ATTRIBUTE.exec(raw);
    if (!match) return null;
    const keys = (match[3] ?? '').match(/PK|FK|UK/g) ?? [];
    return [match[1]!, match[2]!, keys.join(', '), match[4] ?? ''];
  }
  if (!isPlainObject(raw) || typeof raw.type !== 'string' || typeof raw.name !== 'string') return null;
  const keys = Array.isArray(raw.keys) ? raw.keys : [];
  if (!keys.every((k) => (KEYS as readonly unknown[]).includes(k))) return null;
  if (raw.comment !== undefined && raw.comment !== null && typeof raw.comment !== 'string') return null;
  return [raw.type, raw.name, keys.join(', '), typeof raw.comment === 'string' ? raw.comment : ''];
}

/** Every problem of an ER spec, and with none, the diagram to draw. */
export function checkErSpec(input: Record<string, unknown>): { problems: Problem[]; spec: StructureSpec | null } {
  const c = new StructureChecker('er', TOP_FIELDS, input);
  c.list(input.entities, 'entities', (raw, path, where) => {
    if (typeof raw === 'string') return c.box({ id: raw, label: raw, compartments: EMPTY, parent: null }, path, where);
    if (!isPlainObject(raw)) return c.problem(path, 'INVALID_SPEC', `${where} must be an id or an object { id, label?, attributes? }`);
    if (!c.fields(raw, ['id', 'label', 'attributes'], path, where, 'an entity takes id, label and attributes')) return;
    if (!c.isId(raw.id)) return c.problem([...path, 'id'], 'MISSING_NODE_ID', `${where} needs an id`);
    if (!c.isText(raw.label)) return c.problem([...path, 'label'], 'INVALID_SPEC', `${where}.label must be a string`);
    const rows: string[][] = [];
    if (raw.attributes !== undefined && raw.attributes !== null) {
      if (!Array.isArray(raw.attributes)) return c.problem([...path, 'attributes'], 'INVALID_SPEC', `${where}.attributes must be a list`);
      for (const [i, attribute] of raw.attributes.entries()) {
        const row = attributeRow(attribute);
        if (!row) return c.problem([...path, 'attributes', i], 'INVALID_SPEC', `${where}.attributes[${i}] must be "type name [PK|FK|UK] [\\"comment\\"]" or { type, name, keys?, comment? }`, 'for example "int id PK" or { "type": "int", "name": "customer_id", "keys": ["FK"] }');
        rows.push(row);
      }
    }
    c.box({ id: raw.id, label: typeof raw.label === 'string' ? raw.label : raw.id, compartments: rows.length === 0 ? EMPTY : { sections: [rows] }, parent: null }, path, where);
  });
  c.list(input.relationships, 'relationships', (raw, path, where) => {
    let parsed = typeof raw === 'string' ? parseErRelation(raw) : null;
    if (typeof raw === 'string' && !parsed) return c.problem(path, 'MALFORMED_SHORTHAND', `${where} ${JSON.stringify(raw.slice(0, 80))} is not a relationship`, 'write it as Mermaid does: "CUSTOMER ||--o{ ORDER : places"');
    if (typeof raw !== 'string') {
      if (!isPlainObject(raw)) return c.problem(path, 'MALFORMED_EDGE', `${where} must be a string like "A ||--o{ B : has" or an object { from, to, fromCardinality, toCardinality }`);
      if (!c.fields(raw, ['from', 'to', 'fromCardinality', 'toCardinality', 'label', 'identifying'], path, where, 'a relationship takes from, to, fromCardinality, toCardinality, label and identifying')) return;
      if (!c.isId(raw.from) || !c.isId(raw.to)) return c.problem(path, 'MALFORMED_EDGE', `${where} needs "from" and "to": entity ids`);
      for (const key of ['fromCardinality', 'toCardinality'] as const) {
        if (!(CARDINALITIES as readonly unknown[]).includes(raw[key])) return c.problem([...path, key], 'MALFORMED_EDGE', `${where}.${key} must be one of ${CARDINALITIES.join(', ')}; got ${JSON.stringify(raw[key])}`);
      }
      if (!c.isText(raw.label)) return c.problem([...path, 'label'], 'MALFORMED_EDGE', `${where}.label must be a string`);
      parsed = { from: raw.from, to: raw.to, fromCardinality: raw.fromCardinality as Cardinality, toCardinality: raw.toCardinality as Cardinality, identifying: raw.identifying !== false, label: (raw.label as string | null | undefined) ?? '' };
    }
    const [from, to] = [cardinalityEnd(parsed!.fromCardinality), cardinalityEnd(parsed!.toCardinality)];
    c.relation({ from: parsed!.from, to: parsed!.to, line: parsed!.identifying ? 'solid' : 'dashed', startHead: from.head, endHead: to.head, label: parsed!.label, fromText: from.text, toText: to.text }, EMPTY);
  });
  return c.finish(input);
}
