import { rungSchema } from './src/rungs/schema.ts';
const r = rungSchema.safeParse({ name: 'x', description: 'd', servers: { b: { command: 3 } }, steps: [{ prompt: 'p', ceiling: 1, checks: [{ sql: { query: 3 } }], reference: { answer: 'a' } }], timeFactor: -1, foo: 1 });
console.log(JSON.stringify(r.error!.issues, null, 1).slice(0, 4000));
console.log(Object.keys((rungSchema as any)._zod.def), (rungSchema as any)._zod.def.type);
