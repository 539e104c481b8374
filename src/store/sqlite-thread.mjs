// The SQLite database's writing connection, on a thread of its own (see sqlite-dialect.ts).
//
// Every statement that may write runs here: a commit with `synchronous = FULL` waits for the
// disk (tens of milliseconds on a slow one), and the server's event loop must not wait with it.
// Plain JavaScript, so that the thread starts in tens of milliseconds without a TypeScript loader.
//
// In: { id, sql, parameters } (one statement) or { id, close: true }.
// Out: { id, rows } for a statement that returns rows, { id, changes, lastInsertRowid } for one
// that does not, or { id, error: { name, message, code } }.
import { parentPort, workerData } from 'node:worker_threads';
import SQLite from 'better-sqlite3';

const { file, pragmas, statementCacheSize } = workerData;
const database = new SQLite(file);
for (const pragma of pragmas) database.pragma(pragma);

const statements = new Map();
function prepare(sqlText) {
  let statement = statements.get(sqlText);
  if (!statement) {
    if (statements.size >= statementCacheSize) statements.clear();
    statement = database.prepare(sqlText);
    statements.set(sqlText, statement);
  }
  return statement;
}

// A Buffer crosses the thread boundary as a plain Uint8Array; SQLite binds only Buffers as blobs.
const bindable = (value) => (value instanceof Uint8Array && !Buffer.isBuffer(value) ? Buffer.from(value.buffer, value.byteOffset, value.byteLength) : value);

function run(sqlText, parameters) {
  const statement = prepare(sqlText);
  const values = parameters.map(bindable);
  if (statement.reader) return { rows: statement.all(values) };
  const { changes, lastInsertRowid } = statement.run(values);
  return { changes, lastInsertRowid };
}

parentPort.on('message', (message) => {
  if (message.close) {
    database.close();
    parentPort.postMessage({ id: message.id, rows: [] });
    return;
  }
  try {
    parentPort.postMessage({ id: message.id, ...run(message.sql, message.parameters) });
  } catch (error) {
    parentPort.postMessage({ id: message.id, error: { name: error?.name ?? 'Error', message: String(error?.message ?? error), code: error?.code } });
  }
});

parentPort.postMessage({ ready: true });
