import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import pg from 'pg';
import { openStore } from '../../src/store/open.ts';

/** The test cluster's URL, or undefined when PostgreSQL tests cannot run here. */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export const skipWithoutPostgres = TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set';

/** Creates an empty database on the test cluster and returns its URL. */
export async function freshPostgresDatabase(): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `drawbridge_${randomBytes(6).toString('hex')}`;
  await onCluster((client) => client.query(`create database ${name}`));
  return databaseUrl(name);
}

/** The schema's source: a template is made once for each version of it. */
const MIGRATIONS_FILE = new URL('../../src/store/migrations.ts', import.meta.url);

/** PostgreSQL's codes for a database that exists already, and for a template someone is connected to. */
const DUPLICATE_DATABASE = '42P04';
const TEMPLATE_IN_USE = '55006';

async function onCluster<T>(work: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    return await work(client);
  } finally {
    await client.end();
  }
}

function databaseUrl(name: string): string {
  const url = new URL(TEST_DATABASE_URL!);
  url.pathname = `/${name}`;
  return url.toString();
}

let template: Promise<string> | undefined;

/**
 * A database on the test cluster at the latest schema, migrated once: made by migrating an empty
 * database, then renamed to its name (so a process that finds it finds it whole) and closed to
 * connections (so copying it never finds someone connected). Processes making it at once each
 * migrate their own; the first rename wins and the others drop theirs.
 */
function migratedTemplate(): Promise<string> {
  template ??= (async () => {
    const name = `drawbridge_template_${createHash('sha256').update(fs.readFileSync(MIGRATIONS_FILE)).digest('hex').slice(0, 16)}`;
    const exists = await onCluster(async (client) => (await client.query('select 1 from pg_database where datname = $1', [name])).rowCount === 1);
    if (exists) return name;
    const building = await freshPostgresDatabase();
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'drawbridge-template-'));
    try {
      await (await openStore({ dataDir, databaseUrl: building })).close();
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    const buildingName = new URL(building).pathname.slice(1);
    await onCluster(async (client) => {
      try {
        await client.query(`alter database ${buildingName} rename to ${name}`);
        await client.query(`alter database ${name} with is_template true allow_connections false`);
      } catch (error) {
        if ((error as { code?: string }).code !== DUPLICATE_DATABASE) throw error;
        await client.query(`drop database ${buildingName}`);
      }
    });
    return name;
  })();
  template.catch(() => {
    template = undefined;
  });
  return template;
}

/**
 * Creates a database on the test cluster already at the latest schema (a copy of a template
 * migrated once per schema, much quicker than migrating each) and returns its URL. Opening it
 * migrates nothing; a test of the migrations themselves takes `freshPostgresDatabase`.
 */
export async function migratedPostgresDatabase(): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const from = await migratedTemplate();
  const name = `drawbridge_${randomBytes(6).toString('hex')}`;
  for (let attempt = 1; ; attempt++) {
    try {
      await onCluster((client) => client.query(`create database ${name} template ${from}`));
      return databaseUrl(name);
    } catch (error) {
      // Another copy being made at this moment holds the template for a while.
      if ((error as { code?: string }).code !== TEMPLATE_IN_USE || attempt === 20) throw error;
      await new Promise((resolve) => setTimeout(resolve, 50 * attempt));
    }
  }
}
