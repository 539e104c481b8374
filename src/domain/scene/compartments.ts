/**
 * A box in compartments, as a class or an entity is drawn: its name at the
 * top (the box's bound label), then sections below divider lines, each rows
 * of text in columns (an attribute's type, name and keys line up). The box
 * is sized to its text; each section's column is one free text, so a person
 * edits a compartment as one text; the box, its dividers and its texts are
 * one group, so they move together.
 */
import { type ExcalidrawElement, FONT_FAMILY_EXCALIFONT } from './elements.ts';
import { lineElement, textElement } from './factory.ts';
import { round, type TextBlock } from './node-plan.ts';
import { BOUND_TEXT_PADDING, getLineHeight, measureText } from '../text/metrics.ts';

export interface Compartments {
  /** Sections below the name, top to bottom; each is rows, each row its cells (columns). An empty section is drawn small. */
  sections: string[][][];
}

/** The rows' font size: smaller than a name's, as Mermaid sets them. */
const ROW_FONT_SIZE = 16;
const ROW_HEIGHT = ROW_FONT_SIZE * getLineHeight(FONT_FAMILY_EXCALIFONT);
/** Inside the box: left and right of the text, above and below a section's rows, between columns. */
const SIDE_PAD = 12;
const SECTION_PAD = 6;
const COLUMN_GAP = 14;
/** An empty section's height. */
const EMPTY_SECTION = 12;
const MIN_WIDTH = 120;
const DIVIDER_WIDTH = 1;

/** The sizes of a compartmented box: each section's height and each column's width, and the whole. */
export interface CompartmentPlan {
  width: number;
  height: number;
  header: number;
  sections: Array<{ height: number; columns: number[] }>;
}

/** A cell is one line of its row: a line break written in it (a long comment) becomes a space. */
const cellText = (cell: string | undefined) => (cell ?? '').replace(/\s*\n\s*/g, ' ');
const widthOf = (text: string) => (text === '' ? 0 : measureText(cellText(text), ROW_FONT_SIZE, FONT_FAMILY_EXCALIFONT).width);

/** The box for a name (its label block, as planned) over these sections. */
export function planCompartments(label: TextBlock | null, compartments: Compartments): CompartmentPlan {
  const header = (label?.height ?? 0) + 2 * BOUND_TEXT_PADDING + 6;
  let width = Math.max(MIN_WIDTH, (label?.width ?? 0) + 2 * SIDE_PAD);
  const sections = compartments.sections.map((rows) => {
    const count = Math.max(0, ...rows.map((row) => row.length));
    const columns = Array.from({ length: count }, (_, c) => Math.max(...rows.map((row) => widthOf(row[c] ?? ''))));
    const used = columns.filter((w) => w > 0);
    width = Math.max(width, used.reduce((a, b) => a + b, 0) + COLUMN_GAP * Math.max(0, used.length - 1) + 2 * SIDE_PAD);
    return { height: rows.length === 0 ? EMPTY_SECTION : rows.length * ROW_HEIGHT + 2 * SECTION_PAD, columns };
  });
  const height = header + sections.reduce((sum, s) => sum + s.height, 0);
  return { width: Math.ceil(width), height: Math.ceil(height), header, sections };
}

/**
 * The dividers and row texts of a compartmented box laid out at `box`, in the
 * box's group; the box's label is moved to the top (where the editor keeps a
 * label aligned to the top). `shape` and `label` are the box's elements.
 */
export function compartmentElements(
  id: string,
  box: { x: number; y: number; width: number; height: number },
  plan: CompartmentPlan,
  compartments: Compartments,
  shape: ExcalidrawElement,
  label: ExcalidrawElement | null,
  nextOrder: () => number,
  updated: number,
): ExcalidrawElement[] {
  const group = `${id}-group`;
  const grouped = (e: ExcalidrawElement) => {
    e.groupIds = [...new Set([group, ...((e.groupIds as string[] | undefined) ?? [])])];
    return e;
  };
  grouped(shape);
  // Square corners: the dividers meet the sides, and no corner cuts into the name.
  shape.roundness = null;
  if (label) {
    grouped(label);
    label.verticalAlign = 'top';
    label.y = round(box.y + BOUND_TEXT_PADDING);
  }
  const out: ExcalidrawElement[] = [];
  let y = box.y + plan.header;
  compartments.sections.forEach((rows, s) => {
    const divider = lineElement(`${id}-divider-${s + 1}`, { x: 0, y: 0 }, [[box.x, y], [box.x + box.width, y]], nextOrder(), updated, { strokeWidth: DIVIDER_WIDTH, strokeColor: shape.strokeColor as string }, [group]);
    divider.roughness = 0;
    out.push(divider);
    const section = plan.sections[s]!;
    let x = box.x + SIDE_PAD;
    section.columns.forEach((columnWidth, c) => {
      if (columnWidth === 0) return;
      const text = rows.map((row) => cellText(row[c])).join('\n');
      const measured = measureText(text, ROW_FONT_SIZE, FONT_FAMILY_EXCALIFONT);
      const block: TextBlock = { text, original: text, width: measured.width, height: measured.height };
      const suffix = section.columns.filter((w) => w > 0).length > 1 ? `-section-${s + 1}-${c + 1}` : `-section-${s + 1}`;
      const cell = grouped(textElement(`${id}${suffix}`, block, { x: round(x), y: round(y + SECTION_PAD) }, nextOrder(), updated, { containerId: null, textAlign: 'left', verticalAlign: 'top', strokeColor: label ? (label.strokeColor as string) : null, fontSize: ROW_FONT_SIZE }));
      // Which section and column it is, for reading the box back.
      cell.customData = { section: s + 1, column: c + 1 };
      out.push(cell);
      x += columnWidth + COLUMN_GAP;
    });
    y += section.height;
  });
  return out;
}
