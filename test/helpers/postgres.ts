import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** The test cluster's URL, or undefined when PostgreSQL tests cannot run here. */
const TEST_DATABASE_URL = process.env.TEST_DATABASE_URL;

export const skipWithoutPostgres = TEST_DATABASE_URL ? false : 'TEST_DATABASE_URL is not set';

/** Creates an empty database on the test cluster and returns its URL. */
export async function freshPostgresDatabase(): Promise<string> {
  if (!TEST_DATABASE_URL) throw new Error('TEST_DATABASE_URL is not set');
  const name = `drawbridge_${randomBytes(6).toString('hex')}`;
  const client = new pg.Client({ connectionString: TEST_DATABASE_URL });
  await client.connect();
  try {
    await client.query(`create database ${name}`);
  } finally {
    await client.end();
  }
  const url = new URL(TEST_DATABASE_URL);
  url.pathname = `/${name}`;
  return url.toString();
}
