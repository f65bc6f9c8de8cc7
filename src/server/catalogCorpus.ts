// The catalog's pages. Written for the workbench's rungs: the config pages together give
// every value of service.json, and the SQL pages explain named parameters in general while,
// by design, never naming the database's dialect (only the database can tell: sql_describe).

export interface CatalogPage {
  topic: string;
  summary: string;
  body: string;
}

export const CATALOG: readonly CatalogPage[] = [
  {
    topic: 'sql',
    summary: 'Writing SQL for the workbench database: statements, parameters, errors.',
    body: [
      'Use sql_query for statements that return rows (SELECT, or anything with RETURNING) and',
      'sql_execute for statements that change data or schema (INSERT, UPDATE, DELETE, CREATE).',
      'Pass values as parameters instead of pasting them into the SQL text; see sql/parameters.',
      'The SQL dialect (and so the exact syntax of types, upserts, date functions and parameter',
      'placeholders) depends on which database engine the workbench is connected to. This catalog',
      'documents the workbench, not a particular engine.',
    ].join('\n'),
  },
  {
    topic: 'sql/parameters',
    summary: 'Named and positional parameters in SQL statements.',
    body: [
      'A parameter is a placeholder in the SQL text whose value is passed separately, in params.',
      'Named parameters are passed as an object, positional ones as an array.',
      'Placeholder syntax differs between SQL dialects: :name, @name, $name, %(name)s, $1 and ?',
      'are all in use. Which of them the workbench database accepts depends on its engine, which',
      'this catalog does not record.',
    ].join('\n'),
  },
  {
    topic: 'config/service',
    summary: 'service.json: the top-level layout and the listen section.',
    body: [
      'The service reads service.json from the workspace root: one JSON object with the sections',
      'listen, retries, cache and logging (see config/retries, config/cache, config/logging).',
      'listen.host: "127.0.0.1" (the service never binds beyond the machine).',
      'listen.port: 8080.',
    ].join('\n'),
  },
  {
    topic: 'config/retries',
    summary: 'service.json retries section: attempts and backoff.',
    body: [
      'retries.maxAttempts: 4 (the first attempt included).',
      'retries.backoffMs: 250 (doubled after each failed attempt).',
    ].join('\n'),
  },
  {
    topic: 'config/cache',
    summary: 'service.json cache section: lifetime of cached entries.',
    body: ['cache.ttlSeconds: 900.', 'cache.maxEntries: 5000.'].join('\n'),
  },
  {
    topic: 'config/logging',
    summary: 'service.json logging section: level and format.',
    body: ['logging.level: "warn".', 'logging.format: "json".'].join('\n'),
  },
  {
    topic: 'jobs',
    summary: 'Background jobs: starting them and waiting for them.',
    body: [
      'jobs_start starts a job and returns its id at once; the job keeps running in the background.',
      'jobs_wait waits for jobs, at most 30 s per call: when it returns done: false with remainingMs,',
      'call it again with timeoutMs set to remainingMs. jobs_list shows every job without waiting.',
    ].join('\n'),
  },
  {
    topic: 'logs',
    summary: 'The service log: reading it and following it.',
    body: [
      'logs_read returns numbered lines. The log grows while the workbench runs, so read again with',
      'fromLine set to the line after the last one you saw to get only what is new.',
    ].join('\n'),
  },
  {
    topic: 'release',
    summary: 'Publishing a release.',
    body: [
      'A release is published with release_publish, which appears once the build has finished.',
      'Each version can be published once; the record is kept in release/published.json.',
    ].join('\n'),
  },
];
