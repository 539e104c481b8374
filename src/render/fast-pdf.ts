/**
 * The fast renderer's PDF: its SVG (fast-svg.ts) painted onto the page of a
 * Skia PDF document, element by element, so shapes stay vector and text is
 * text (selectable, in the fonts src/render/fonts/ picks, as for the faithful PDF).
 *
 * Not an SVG renderer: it paints what the fast writer writes and nothing
 * else (rect, circle, ellipse, line, path, text, image, groups with a
 * transform, opacity, clip-path, mask or the theme filter; hatch patterns;
 * masks made of rectangles), and fails on anything else rather than draw it
 * wrong. Skia's own SVG support would rasterise the drawing.
 */
import { DOMMatrix, Image, Path2D, PDFDocument, type SKRSContext2D } from '@napi-rs/canvas';
import { registerFonts } from './canvas-fonts.ts';
import { fontFilesFor } from './fonts/index.ts';
import { keepVector } from './pdf-page.ts';
import { decodeXmlText } from './raster.ts';

interface SvgNode {
  name: string;
  attributes: Record<string, string>;
  children: SvgNode[];
  text: string;
}

function parseSvg(svg: string): SvgNode {
  const root: SvgNode = { name: '#document', attributes: {}, children: [], text: '' };
  const open: SvgNode[] = [root];
  for (const match of svg.matchAll(/<(\/?)([a-zA-Z][\w:-]*)((?:\s+[\w:-]+="[^"]*")*)\s*(\/?)>|([^<]+)/g)) {
    const parent = open.at(-1)!;
    if (match[5] !== undefined) {
      parent.text += decodeXmlText(match[5]);
      continue;
    }
    if (match[1] === '/') {
      open.pop();
      continue;
    }
    const attributes: Record<string, string> = {};
    for (const [, name, value] of match[3]!.matchAll(/([\w:-]+)="([^"]*)"/g)) attributes[name!] = decodeXmlText(value!);
    const node: SvgNode = { name: match[2]!, attributes, children: [], text: '' };
    parent.children.push(node);
    if (match[4] !== '/') open.push(node);
  }
  const svgRoot = root.children.find((node) => node.name === 'svg');
  if (!svgRoot) throw new Error('not an SVG document');
  return svgRoot;
}

const numbers = (text: string | undefined) => (text ?? '').trim().split(/[\s,]+/).filter((part) => part !== '').map(Number);
const reference = (value: string | undefined) => /^url\(#([^)]+)\)$/.exec(value ?? '')?.[1];

function applyTransform(context: SKRSContext2D, transform: string | undefined): void {
  for (const [, kind, args] of (transform ?? '').matchAll(/(\w+)\(([^)]*)\)/g)) {
    const [a = 0, b, c, d, e, f] = numbers(args);
    if (kind === 'translate') context.translate(a, b ?? 0);
    else if (kind === 'scale') context.scale(a, b ?? a);
    else if (kind === 'rotate') {
      if (b !== undefined) context.translate(b, c ?? 0);
      context.rotate((a * Math.PI) / 180);
      if (b !== undefined) context.translate(-b, -(c ?? 0));
    } else if (kind === 'matrix') context.transform(a, b!, c!, d!, e!, f!);
    else throw new Error(`the fast PDF does not draw the transform ${kind}`);
  }
}

/** The outline of a shape element as a Path2D in its own coordinates. */
function outline(node: SvgNode): Path2D {
  const a = node.attributes;
  const n = (name: string, fallback = 0) => (a[name] === undefined ? fallback : Number(a[name]));
  const path = new Path2D();
  switch (node.name) {
    case 'path':
      return new Path2D(a.d ?? '');
    case 'rect': {
      const rx = n('rx', n('ry'));
      if (rx > 0) path.roundRect(n('x'), n('y'), n('width'), n('height'), Math.min(rx, n('width') / 2, n('height') / 2));
      else path.rect(n('x'), n('y'), n('width'), n('height'));
      return path;
    }
    case 'circle':
      path.ellipse(n('cx'), n('cy'), n('r'), n('r'), 0, 0, 2 * Math.PI);
      return path;
    case 'ellipse':
      path.ellipse(n('cx'), n('cy'), n('rx'), n('ry'), 0, 0, 2 * Math.PI);
      return path;
    case 'line':
      path.moveTo(n('x1'), n('y1'));
      path.lineTo(n('x2'), n('y2'));
      return path;
    default:
      throw new Error(`the fast PDF does not draw <${node.name}>`);
  }
}

class FastSvgPainter {
  private readonly byId = new Map<string, SvgNode>();
  private readonly images = new Map<string, Image>();

  private readonly root: SvgNode;
  private readonly context: SKRSContext2D;
  constructor(root: SvgNode, context: SKRSContext2D) {
    this.root = root;
    this.context = context;
    const index = (node: SvgNode) => {
      if (node.attributes.id) this.byId.set(node.attributes.id, node);
      node.children.forEach(index);
    };
    index(root);
  }

  /** Decodes the document's images first: painting is synchronous. */
  async loadImages(): Promise<void> {
    const visit = async (node: SvgNode): Promise<void> => {
      const href = node.attributes.href ?? node.attributes['xlink:href'];
      if (node.name === 'image' && href?.startsWith('data:image/') && !this.images.has(href)) {
        const image = new Image();
        image.src = href;
        await image.decode();
        this.images.set(href, image);
      }
      for (const child of node.children) await visit(child);
    };
    await visit(this.root);
  }

  paint(): void {
    for (const child of this.root.children) this.paintNode(child);
  }

  private paintNode(node: SvgNode): void {
    if (['defs', 'mask', 'pattern', 'clipPath', 'filter', 'title', 'desc', 'style'].includes(node.name)) return;
    const context = this.context;
    const a = node.attributes;
    context.save();
    applyTransform(context, a.transform);
    if (a.opacity !== undefined) context.globalAlpha *= Number(a.opacity);
    const clip = reference(a['clip-path']);
    if (clip) this.clipTo(this.definition(clip, 'clipPath'));
    const mask = reference(a.mask);
    if (mask) this.maskTo(this.definition(mask, 'mask'));
    const filter = reference(a.filter);
    if (filter) {
      this.definition(filter, 'filter');
      // The only filter the fast writer writes is the dark theme's (options.ts, themeFilterMarkup).
      context.filter = 'invert(93%) hue-rotate(180deg)';
    }
    if (node.name === 'g' || node.name === 'a') node.children.forEach((child) => this.paintNode(child));
    else if (node.name === 'text') this.paintText(node);
    else if (node.name === 'image') this.paintImage(node);
    else this.paintShape(node, outline(node));
    context.restore();
  }

  private definition(id: string, kind: string): SvgNode {
    const node = this.byId.get(id);
    if (!node || node.name !== kind) throw new Error(`the fast SVG names a ${kind} #${id} it does not define`);
    return node;
  }

  private clipTo(clipPath: SvgNode): void {
    const path = new Path2D();
    for (const child of clipPath.children) {
      const matrix = new DOMMatrix();
      for (const [, kind, args] of (child.attributes.transform ?? '').matchAll(/(\w+)\(([^)]*)\)/g)) {
        const [x = 0, y = 0] = numbers(args);
        if (kind !== 'translate') throw new Error(`the fast PDF does not clip with the transform ${kind}`);
        matrix.translateSelf(x, y);
      }
      path.addPath(outline(child), matrix);
    }
    this.context.clip(path);
  }

  /** A mask of white and black rectangles (an arrow's gap for its label): white areas minus black ones. */
  private maskTo(mask: SvgNode): void {
    const path = new Path2D();
    for (const child of mask.children) {
      if (child.name !== 'rect' || !['#fff', '#ffffff', '#000', '#000000'].includes(child.attributes.fill ?? '')) {
        throw new Error('the fast PDF draws masks of white and black rectangles only');
      }
      path.addPath(outline(child));
    }
    this.context.clip(path, 'evenodd');
  }

  private paintShape(node: SvgNode, shape: Path2D): void {
    const context = this.context;
    const a = node.attributes;
    const fill = a.fill ?? (node.name === 'line' ? 'none' : '#000000');
    const pattern = reference(fill);
    if (pattern) this.hatch(shape, this.definition(pattern, 'pattern'));
    else if (fill !== 'none' && fill !== 'transparent') {
      context.fillStyle = fill;
      context.fill(shape, a['fill-rule'] === 'evenodd' ? 'evenodd' : 'nonzero');
    }
    const stroke = a.stroke;
    if (stroke !== undefined && stroke !== 'none' && stroke !== 'transparent') {
      context.strokeStyle = stroke;
      context.lineWidth = Number(a['stroke-width'] ?? 1);
      context.lineCap = (a['stroke-linecap'] ?? 'butt') as CanvasLineCap;
      context.lineJoin = (a['stroke-linejoin'] ?? 'miter') as CanvasLineJoin;
      context.setLineDash(a['stroke-dasharray'] && a['stroke-dasharray'] !== 'none' ? numbers(a['stroke-dasharray']) : []);
      context.stroke(shape);
    }
  }

  /** A hatch pattern (tiles of full-width or full-height lines) as lines across the shape, clipped to it: vector, unlike a pattern fill. */
  private hatch(shape: Path2D, pattern: SvgNode): void {
    const context = this.context;
    const [tileWidth, tileHeight] = [Number(pattern.attributes.width), Number(pattern.attributes.height)];
    context.save();
    context.clip(shape);
    applyTransform(context, pattern.attributes.patternTransform);
    // The shape's extent in the pattern's space, with room for the rotation.
    const inverse = context.getTransform().inverse();
    const bounds = this.clipExtent(inverse);
    for (const line of pattern.children) {
      if (line.name !== 'line') throw new Error('the fast PDF draws hatch patterns of lines only');
      const [x1, y1, x2, y2] = ['x1', 'y1', 'x2', 'y2'].map((name) => Number(line.attributes[name] ?? 0)) as [number, number, number, number];
      context.strokeStyle = line.attributes.stroke ?? '#000000';
      context.lineWidth = Number(line.attributes['stroke-width'] ?? 1);
      context.setLineDash([]);
      context.beginPath();
      if (y1 === y2) {
        for (let row = Math.floor(bounds.minY / tileHeight); row * tileHeight <= bounds.maxY; row++) {
          context.moveTo(bounds.minX, row * tileHeight + y1);
          context.lineTo(bounds.maxX, row * tileHeight + y1);
        }
      } else if (x1 === x2) {
        for (let column = Math.floor(bounds.minX / tileWidth); column * tileWidth <= bounds.maxX; column++) {
          context.moveTo(column * tileWidth + x1, bounds.minY);
          context.lineTo(column * tileWidth + x1, bounds.maxY);
        }
      } else throw new Error('the fast PDF draws hatch lines that are horizontal or vertical only');
      context.stroke();
    }
    context.restore();
  }

  /** The page's extent, in the space `inverse` maps the page into (the page's corners mapped, then their bounds). */
  private clipExtent(inverse: DOMMatrix): { minX: number; minY: number; maxX: number; maxY: number } {
    const { width, height } = this.root.attributes.viewBox ? { width: numbers(this.root.attributes.viewBox)[2]!, height: numbers(this.root.attributes.viewBox)[3]! } : { width: 0, height: 0 };
    const corners = [
      [0, 0],
      [width, 0],
      [0, height],
      [width, height],
    ].map(([x, y]) => inverse.transformPoint({ x, y }));
    return {
      minX: Math.min(...corners.map((p) => p.x)),
      minY: Math.min(...corners.map((p) => p.y)),
      maxX: Math.max(...corners.map((p) => p.x)),
      maxY: Math.max(...corners.map((p) => p.y)),
    };
  }

  private paintText(node: SvgNode): void {
    const context = this.context;
    const a = node.attributes;
    const anchor = a['text-anchor'] ?? 'start';
    context.direction = a.direction === 'rtl' ? 'rtl' : 'ltr';
    context.textAlign = anchor === 'middle' ? 'center' : anchor === 'end' ? 'end' : 'start';
    context.textBaseline = 'alphabetic';
    context.font = `${a['font-size'] ?? '16px'} ${a['font-family'] ?? 'sans-serif'}`;
    context.fillStyle = a.fill ?? '#000000';
    context.fillText(node.text, Number(a.x ?? 0), Number(a.y ?? 0));
  }

  private paintImage(node: SvgNode): void {
    const a = node.attributes;
    const image = this.images.get(a.href ?? a['xlink:href'] ?? '');
    if (!image) return;
    this.context.drawImage(image, Number(a.x ?? 0), Number(a.y ?? 0), Number(a.width ?? image.width), Number(a.height ?? image.height));
  }
}

/** The text of the document, each with its font stack, for choosing fonts. */
function textRuns(node: SvgNode): Array<{ fontFamily: string; text: string }> {
  const own = node.name === 'text' ? [{ fontFamily: node.attributes['font-family'] ?? '', text: node.text }] : [];
  return [...own, ...node.children.flatMap(textRuns)];
}

/** A fast SVG as a PDF of one page its size (1 SVG pixel = 1 point). */
export async function renderFastPdf(svg: string, fontsDirectory: string): Promise<Buffer> {
  const root = parseSvg(svg);
  const [, , width, height] = numbers(root.attributes.viewBox);
  if (!(width! > 0 && height! > 0)) throw new Error('the fast SVG has no drawing size');
  const resolveFont = registerFonts(await fontFilesFor(textRuns(root), fontsDirectory));
  const document = new PDFDocument({ creator: 'Drawbridge', producer: 'Drawbridge (Skia/PDF)' });
  const page = keepVector(document.beginPage(width!, height!) as unknown as SKRSContext2D);
  const font = Object.getOwnPropertyDescriptor(Object.getPrototypeOf(page), 'font')!;
  Object.defineProperty(page, 'font', { configurable: true, get: () => font.get!.call(page), set: (value: string) => font.set!.call(page, resolveFont(value)) });
  page.lang = 'en';
  const painter = new FastSvgPainter(root, page);
  await painter.loadImages();
  painter.paint();
  document.endPage();
  return document.close();
}
