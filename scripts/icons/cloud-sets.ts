/**
 * The cloud and platform architecture icon sets: AWS, Azure, Google Cloud and
 * Kubernetes, as their vendors publish them for architecture diagrams.
 *
 * They come from the npm package @thesvg/icons at a pinned version, which
 * carries each vendor's set with its names, categories and licence per icon.
 * The package is large, so it is not a dependency: the build fetches its
 * tarball from the registry once (npm checks its integrity) into
 * node_modules/.cache and reads the icon modules there as text; nothing in it
 * is run.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import type { CatalogIcon, IconCategory } from '../../src/domain/icons/catalog.ts';
import { CLOUD_ALIASES } from './cloud-aliases.ts';
import { IconRefused, normaliseVendorSvg } from './normalise-svg.ts';

const fail = (message: string): never => {
  throw new Error(message);
};

export const CLOUD_SOURCE = { name: '@thesvg/icons', version: '3.3.8' } as const;

export type CloudCategory = Extract<IconCategory, 'aws' | 'azure' | 'google-cloud' | 'kubernetes'>;
export const isCloudCategory = (category: IconCategory): category is CloudCategory => CLOUD_SETS.some((set) => set.category === category);

interface CloudSet {
  /** The package's file prefix. */
  prefix: string;
  category: CloudCategory;
  /** Where the vendor publishes the set and its terms. */
  origin: string;
  /** The catalog name (the id is `icon-<name>`) for the package's slug. */
  name: (slug: string) => string;
  label: (title: string) => string;
}

const stripVendor = (rest: string) => rest.replace(/^(amazon|aws)-/, '');

// Google Cloud's titles come from file names ("Cloud Sql", "Bigquery"); these are the products' own spellings.
const GOOGLE_WORDS: Record<string, string> = {
  Ai: 'AI', Api: 'API', Apis: 'APIs', Automl: 'AutoML', Beyondcorp: 'BeyondCorp', Bigquery: 'BigQuery', Cdn: 'CDN', Cx: 'CX', Dns: 'DNS',
  Ekm: 'EKM', Gce: 'GCE', Gke: 'GKE', Gpu: 'GPU', Hsm: 'HSM', Ids: 'IDS', Iot: 'IoT', Ip: 'IP', Kuberun: 'KubeRun', Nat: 'NAT', Nlp: 'NLP',
  Os: 'OS', Pubsub: 'Pub/Sub', Qna: 'QnA', Sql: 'SQL', Ssd: 'SSD', Tpu: 'TPU', Vertexai: 'Vertex AI', Vpc: 'VPC', Vpn: 'VPN', And: 'and', For: 'for',
};

const CLOUD_SETS: readonly CloudSet[] = [
  {
    prefix: 'aws',
    category: 'aws',
    origin: 'https://aws.amazon.com/architecture/icons/',
    name: (slug) => {
      const rest = slug.slice('aws-'.length);
      if (rest.startsWith('cat-')) return `aws-category-${rest.slice('cat-'.length)}`;
      if (rest.startsWith('group-')) return `aws-group-${rest.slice('group-'.length)}`;
      if (rest.startsWith('res-')) return `aws-${stripVendor(rest.slice('res-'.length))}`;
      return `aws-${stripVendor(rest)}`;
    },
    label: (title) => title.replace(/\bAternate\b/, 'Alternate'),
  },
  {
    prefix: 'azure',
    category: 'azure',
    origin: 'https://learn.microsoft.com/azure/architecture/icons/',
    name: (slug) => `azure-${slug.slice('azure-'.length).replace(/^azure-/, '')}`,
    label: (title) => title,
  },
  {
    prefix: 'gcp',
    category: 'google-cloud',
    origin: 'https://cloud.google.com/icons',
    name: (slug) => slug,
    label: (title) => title.split(/\s+/).map((word) => GOOGLE_WORDS[word] ?? word).join(' '),
  },
  {
    prefix: 'k8s',
    category: 'kubernetes',
    origin: 'https://github.com/kubernetes/community/tree/master/icons',
    name: (slug) => slug,
    label: (title) => title,
  },
];

/**
 * Licences under which a set's icons may be shipped. AWS publishes its set
 * under CC BY-ND 2.0: it is shipped with the drawing unchanged (only the
 * markup is normalised, a change of format the licence allows) and credited
 * in each icon's origin. Icons under any other terms are left out.
 */
const CLOUD_LICENSES = new Set(['MIT', 'CC0-1.0', 'Apache-2.0', 'CC-BY-ND-2.0']);

interface PackageIcon {
  slug: string;
  title: string;
  categories: string[];
  aliases: string[];
  svg: string;
  license: string;
}

const stringExport = (text: string, name: string, file: string): string => {
  const match = new RegExp(`^export const ${name} = ("(?:[^"\\\\]|\\\\.)*");$`, 'm').exec(text);
  if (!match) throw new Error(`${file}: no string export "${name}"`);
  return JSON.parse(match[1]!) as string;
};
const listExport = (text: string, name: string, file: string): string[] => {
  const match = new RegExp(`^export const ${name} = (\\[.*\\]);$`, 'm').exec(text);
  if (!match) throw new Error(`${file}: no list export "${name}"`);
  return JSON.parse(match[1]!) as string[];
};

/** Reads one icon module as text: its constants are JSON literals and the SVG a template literal with nothing interpolated. */
function readPackageIcon(file: string): PackageIcon {
  const text = fs.readFileSync(file, 'utf8');
  const where = path.basename(file);
  const svg = /^export const svg = `([^`]*)`;$/m.exec(text) ?? (() => {
    throw new Error(`${where}: no svg template`);
  })();
  if (svg[1]!.includes('${') || svg[1]!.includes('\\')) throw new Error(`${where}: the svg template interpolates or escapes`);
  return {
    slug: stringExport(text, 'slug', where),
    title: stringExport(text, 'title', where),
    categories: listExport(text, 'categories', where),
    aliases: listExport(text, 'aliases', where),
    svg: svg[1]!,
    license: stringExport(text, 'license', where),
  };
}

const CACHE = fileURLToPath(new URL(`../../node_modules/.cache/icon-sources/thesvg-icons-${CLOUD_SOURCE.version}/`, import.meta.url));

/** The package's icon modules for the four sets, fetched and unpacked on first use. */
function cloudSourceDirectory(): string {
  const marker = path.join(CACHE, '.complete');
  if (fs.existsSync(marker)) return path.join(CACHE, 'package', 'dist');
  const scratch = fs.mkdtempSync(path.join(os.tmpdir(), 'icon-source-'));
  try {
    execFileSync('npm', ['pack', `${CLOUD_SOURCE.name}@${CLOUD_SOURCE.version}`, '--silent', '--pack-destination', scratch], { stdio: ['ignore', 'ignore', 'inherit'] });
    const tarball = fs.readdirSync(scratch).find((file) => file.endsWith('.tgz')) ?? fail(`npm pack ${CLOUD_SOURCE.name}@${CLOUD_SOURCE.version} left no tarball`);
    fs.rmSync(CACHE, { recursive: true, force: true });
    fs.mkdirSync(CACHE, { recursive: true });
    const patterns = CLOUD_SETS.map((set) => `package/dist/${set.prefix}-*.js`);
    execFileSync('tar', ['-xzf', path.join(scratch, tarball), '-C', CACHE, '--wildcards', 'package/LICENSE', 'package/package.json', ...patterns]);
    const version = (JSON.parse(fs.readFileSync(path.join(CACHE, 'package', 'package.json'), 'utf8')) as { version: string }).version;
    if (version !== CLOUD_SOURCE.version) throw new Error(`${CLOUD_SOURCE.name}: fetched ${version}, wanted ${CLOUD_SOURCE.version}`);
    fs.writeFileSync(marker, `${CLOUD_SOURCE.name}@${CLOUD_SOURCE.version}\n`);
  } finally {
    fs.rmSync(scratch, { recursive: true, force: true });
  }
  return path.join(CACHE, 'package', 'dist');
}

const ICON_SIZE = 64;

/**
 * The set's short name for each slug; where two slugs shorten to one name,
 * the slug that is already that name keeps it (else the first in order) and
 * the others keep their slug.
 */
function uniqueNames(set: CloudSet, slugs: readonly string[]): Map<string, string> {
  const claims = new Map<string, string[]>();
  // One hyphen between words, however the vendor's file name spaced them ("Cloud Optimization AI - Fleet Routing API").
  const nameOf = (slug: string) => set.name(slug).replace(/-{2,}/g, '-');
  for (const slug of slugs) claims.set(nameOf(slug), [...(claims.get(nameOf(slug)) ?? []), slug]);
  const names = new Map<string, string>();
  for (const [name, claimants] of claims) {
    const keeper = claimants.includes(name) ? name : claimants[0]!;
    for (const slug of claimants) names.set(slug, slug === keeper ? name : slug);
  }
  return names;
}

/**
 * Every icon of the four sets that the catalog can take, the ones it leaves
 * out with the reason, and each taken icon's SVG as the vendor drew it (by id).
 */
export function cloudIcons(): { icons: CatalogIcon[]; refused: string[]; originals: Map<string, string> } {
  const directory = cloudSourceDirectory();
  const icons: CatalogIcon[] = [];
  const refused: string[] = [];
  const originals = new Map<string, string>();
  const files = fs.readdirSync(directory).filter((file) => file.endsWith('.js')).sort();
  for (const set of CLOUD_SETS) {
    const sources = files.filter((f) => f.startsWith(`${set.prefix}-`)).map((file) => readPackageIcon(path.join(directory, file)));
    const names = uniqueNames(set, sources.map((source) => source.slug));
    for (const source of sources) {
      const name = names.get(source.slug)!;
      if (!CLOUD_LICENSES.has(source.license)) {
        refused.push(`icon-${name}: licence ${source.license}`);
        continue;
      }
      let svg: string;
      try {
        svg = normaliseVendorSvg(source.svg, name, ICON_SIZE);
      } catch (error) {
        if (!(error instanceof IconRefused)) throw error;
        refused.push(`icon-${name}: ${error.message}`);
        continue;
      }
      const [width, height] = [/ width="([\d.]+)"/, / height="([\d.]+)"/].map((pattern) => Math.round(Number(pattern.exec(svg)![1]))) as [number, number];
      const subcategory = source.categories.map((c) => c.replace(/^Kubernetes\//, '')).find((c) => c !== 'Kubernetes') ?? 'General';
      // The package's aliases that only repeat part of the title (a resource's own name, "Bucket") add nothing to search.
      const title = source.title.toLowerCase();
      const aliases = [...new Set([...source.aliases.map((a) => a.toLowerCase()).filter((a) => !title.includes(a)), ...(CLOUD_ALIASES[name] ?? [])])].sort();
      originals.set(`icon-${name}`, source.svg);
      icons.push({
        id: `icon-${name}`,
        label: set.label(source.title.replace(/\s+/g, ' ')),
        category: set.category,
        subcategory: subcategory.split('/')[0]!,
        ...(aliases.length > 0 ? { aliases } : {}),
        width,
        height,
        mimeType: 'image/svg+xml',
        svg,
        source: 'thesvg',
        license: source.license,
        origin: set.origin,
      });
    }
  }
  const unknownAliases = Object.keys(CLOUD_ALIASES).filter((name) => !icons.some((icon) => icon.id === `icon-${name}`));
  if (unknownAliases.length > 0) throw new Error(`abbreviations for icons the sets do not have: ${unknownAliases.join(', ')}`);
  return { icons, refused, originals };
}
