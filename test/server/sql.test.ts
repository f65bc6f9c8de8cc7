import path from 'node:path';
import Database from 'better-sqlite3';
import { describe, expect, it } from 'vitest';
import { connected } from './helpers.ts';

const setupSql = `
  create table orders (id integer primary key, item text not null, qty integer not null default 1, paid integer);
  insert into orders (item, qty) values ('apple', 3), ('pear', 1);
`;

describe('sql tools', () => {
  it('describe names the engine, its parameter syntax and every table', async () => {
    await using wb = await connected({ setupSql });
    const described = JSON.parse((await wb.call('sql_describe')).text);
    expect(described.engine).toBe('SQLite');
    expect(described.dialect).toMatch(/^SQLite 3\.\d+\.\d+$/);
    expect(described.parameters).toContain(':name, @name or $name');
    expect(described.tables).toEqual([
      {
        name: 'orders',
        rows: 2,
        columns: [
          { name: 'id', type: 'INTEGER', notNull: false, primaryKey: true },
          { name: 'item', type: 'TEXT', notNull: true, primaryKey: false },
          { name: 'qty', type: 'INTEGER', notNull: true, primaryKey: false, default: '1' },
          { name: 'paid', type: 'INTEGER', notNull: false, primaryKey: false },
        ],
      },
    ]);
  });

  it('inserts with named parameters into the database file in the workspace', async () => {
    await using wb = await connected({ setupSql });
    const insert = await wb.call('sql_execute', {
      sql: 'insert into orders (item, qty, paid) values (:item, @qty, $paid)',
      params: { item: 'plum', qty: 7, paid: true },
    });
    expect(JSON.parse(insert.text)).toEqual({ changes: 1, lastInsertRowid: 3 });
    const db = new Database(path.join(wb.dir, 'workbench.db'), { readonly: true });
    expect(db.prepare('select item, qty, paid from orders where id = 3').get()).toEqual({ item: 'plum', qty: 7, paid: 1 });
    db.close();
  });

  it('queries with named and positional parameters', async () => {
    await using wb = await connected({ setupSql });
    const named = await wb.call('sql_query', { sql: 'select item from orders where qty > :min', params: { min: 2 } });
    expect(JSON.parse(named.text)).toEqual({ rows: [{ item: 'apple' }], rowCount: 1 });
    const positional = await wb.call('sql_query', { sql: 'select count(*) as n from orders where qty >= ?', params: [1] });
    expect(JSON.parse(positional.text).rows).toEqual([{ n: 2 }]);
  });

  it('returns the database message for a syntax error', async () => {
    await using wb = await connected({ setupSql });
    expect(await wb.call('sql_query', { sql: 'selec * from orders' })).toEqual({
      text: 'SQLITE_ERROR: near "selec": syntax error',
      isError: true,
    });
  });

  it('returns the database message for a missing parameter and a broken constraint', async () => {
    await using wb = await connected({ setupSql });
    const missing = await wb.call('sql_execute', { sql: 'insert into orders (item) values (:item)', params: { name: 'x' } });
    expect(missing.isError).toBe(true);
    expect(missing.text).toContain('Missing named parameter "item"');
    const constraint = await wb.call('sql_execute', { sql: 'insert into orders (item) values (null)' });
    expect(constraint).toEqual({ text: 'SQLITE_CONSTRAINT_NOTNULL: NOT NULL constraint failed: orders.item', isError: true });
    const table = await wb.call('sql_query', { sql: 'select * from nope' });
    expect(table.text).toBe('SQLITE_ERROR: no such table: nope');
  });

  it('keeps reads and writes apart, changing nothing when refused', async () => {
    await using wb = await connected({ setupSql });
    const write = await wb.call('sql_query', { sql: "insert into orders (item) values ('x')" });
    expect(write).toEqual({ text: 'this statement returns no rows; run it with sql_execute', isError: true });
    const returning = await wb.call('sql_query', { sql: "insert into orders (item) values ('y') returning id" });
    expect(returning.text).toBe('this statement changes data; run it with sql_execute');
    const read = await wb.call('sql_execute', { sql: 'select * from orders' });
    expect(read.text).toBe('this statement only reads; run it with sql_query to see its rows');
    expect(JSON.parse((await wb.call('sql_query', { sql: 'select count(*) as n from orders' })).text).rows).toEqual([{ n: 2 }]);
  });

  it('runs a statement with RETURNING through sql_execute and shows its rows', async () => {
    await using wb = await connected({ setupSql });
    const result = await wb.call('sql_execute', { sql: "insert into orders (item) values ('kiwi') returning id, item" });
    expect(JSON.parse(result.text)).toEqual({ rows: [{ id: 3, item: 'kiwi' }] });
  });

  it('refuses two statements in one call', async () => {
    await using wb = await connected({ setupSql });
    const two = await wb.call('sql_execute', { sql: "delete from orders; insert into orders (item) values ('z')" });
    expect(two.isError).toBe(true);
    expect(two.text).toContain('more than one statement');
  });

  it('cuts a long result at 200 rows and says so', async () => {
    await using wb = await connected({
      setupSql: 'create table n (v integer); with recursive c(x) as (select 1 union all select x + 1 from c where x < 250) insert into n select x from c;',
    });
    const result = JSON.parse((await wb.call('sql_query', { sql: 'select v from n order by v' })).text);
    expect(result.rowCount).toBe(200);
    expect(result.rows.at(-1)).toEqual({ v: 200 });
    expect(result.truncated).toBe('only the first 200 rows');
  });
});
