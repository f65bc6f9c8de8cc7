// A real SQLite database file in the workspace. Unlike the catalog, the database can say
// what it is: sql_describe names the engine, its version and its parameter syntax. Errors
// come back as isError results carrying SQLite's own message.
import Database from 'better-sqlite3';
import { z } from 'zod';
import { addTool, json, ToolError, type ToolHost } from './tool.ts';

/** A query returns at most this many rows, with a note when there were more. */
const MAX_ROWS = 200;

const scalar = z.union([z.string(), z.number(), z.boolean(), z.null()]);
const paramsField = z
  .union([z.record(z.string(), scalar), z.array(scalar)])
  .optional()
  .describe('Named parameters as an object ({"id": 7} for :id, @id or $id), or positional ones as an array for ?.');
const sqlField = z.string().min(1).describe('One SQL statement.');

type Scalar = z.infer<typeof scalar>;
type Params = Record<string, Scalar> | Scalar[] | undefined;

/** Opens the workspace database and runs a rung's setup SQL; a bad setup is one RangeError. */
export function openDatabase(file: string, setupSql: string | undefined): Database.Database {
  const db = new Database(file);
  try {
    if (setupSql !== undefined && setupSql.trim() !== '') db.exec(setupSql);
  } catch (error) {
    db.close();
    throw new RangeError(`workbench options.setupSql: ${(error as Error).message}`);
  }
  return db;
}

export function registerSql(host: ToolHost): void {
  const { db, logs } = host.state;

  addTool(
    host,
    'sql_describe',
    {
      title: 'Describe the database',
      description:
        'Describes the workbench database: its engine and version, the parameter placeholder syntax it ' +
        'accepts, and every table with its columns and row count.',
      inputSchema: {},
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    () => {
      const { version } = db.prepare('select sqlite_version() as version').get() as { version: string };
      const tables = (
        db.prepare("select name from sqlite_schema where type = 'table' and name not like 'sqlite_%' order by name").all() as {
          name: string;
        }[]
      ).map(({ name }) => describeTable(db, name));
      return json({
        engine: 'SQLite',
        version,
        dialect: `SQLite ${version}`,
        parameters:
          'Named: write :name, @name or $name in the SQL and pass {"name": value} (no prefix in the key). ' +
          'Positional: write ? and pass an array.',
        tables,
      });
    },
  );

  addTool(
    host,
    'sql_query',
    {
      title: 'Run a query',
      description:
        'Runs one SQL statement that returns rows (SELECT, or a statement with RETURNING) and returns the ' +
        `rows as JSON, at most ${MAX_ROWS}. Use sql_execute for statements that change data.`,
      inputSchema: { sql: sqlField, params: paramsField },
      annotations: { readOnlyHint: true, openWorldHint: false },
    },
    ({ sql, params }) => {
      const statement = prepare(db, sql);
      if (!statement.reader) throw new ToolError('this statement returns no rows; run it with sql_execute');
      if (!statement.readonly) throw new ToolError('this statement changes data; run it with sql_execute');
      const { rows, more } = sqlCall(() => {
        const found: unknown[] = [];
        for (const row of statement.iterate(...bind(params))) {
          if (found.length === MAX_ROWS) return { rows: found, more: true };
          found.push(row);
        }
        return { rows: found, more: false };
      });
      return json({ rows, rowCount: rows.length, ...(more ? { truncated: `only the first ${MAX_ROWS} rows` } : {}) });
    },
  );

  addTool(
    host,
    'sql_execute',
    {
      title: 'Execute a statement',
      description:
        'Executes one SQL statement that changes data or schema (INSERT, UPDATE, DELETE, CREATE, ...) and returns ' +
        'the number of rows changed and the last inserted row id.',
      inputSchema: { sql: sqlField, params: paramsField },
      annotations: { readOnlyHint: false, destructiveHint: true, idempotentHint: false, openWorldHint: false },
    },
    ({ sql, params }) => {
      const statement = prepare(db, sql);
      if (statement.reader && statement.readonly) {
        throw new ToolError('this statement only reads; run it with sql_query to see its rows');
      }
      if (statement.reader) {
        const rows = sqlCall(() => statement.all(...bind(params)));
        logs.append(`INFO  db: executed a statement returning ${rows.length} rows`);
        return json({ rows });
      }
      const info = sqlCall(() => statement.run(...bind(params)));
      logs.append(`INFO  db: executed a statement (${info.changes} rows changed)`);
      return json({ changes: info.changes, lastInsertRowid: Number(info.lastInsertRowid) });
    },
  );
}

function describeTable(db: Database.Database, name: string): Record<string, unknown> {
  const quoted = `"${name.replaceAll('"', '""')}"`;
  const columns = (
    db.prepare(`pragma table_info(${quoted})`).all() as {
      name: string;
      type: string;
      notnull: number;
      dflt_value: unknown;
      pk: number;
    }[]
  ).map((column) => ({
    name: column.name,
    type: column.type,
    notNull: column.notnull === 1,
    primaryKey: column.pk > 0,
    ...(column.dflt_value === null ? {} : { default: column.dflt_value }),
  }));
  const { count } = db.prepare(`select count(*) as count from ${quoted}`).get() as { count: number };
  return { name, columns, rows: count };
}

function prepare(db: Database.Database, sql: string): Database.Statement {
  return sqlCall(() => db.prepare(sql));
}

/** Runs a database call; SQLite's own message becomes the tool's error. */
function sqlCall<T>(call: () => T): T {
  try {
    return call();
  } catch (error) {
    const code = (error as { code?: string }).code;
    const message = error instanceof Error ? error.message : String(error);
    throw new ToolError(code ? `${code}: ${message}` : `SQLite: ${message}`);
  }
}

/** SQLite has no booleans: true and false are stored as 1 and 0, as SQLite itself does. */
function bind(params: Params): unknown[] {
  if (params === undefined) return [];
  const convert = (value: Scalar) => (typeof value === 'boolean' ? (value ? 1 : 0) : value);
  if (Array.isArray(params)) return params.map(convert);
  return [Object.fromEntries(Object.entries(params).map(([key, value]) => [key, convert(value)]))];
}
