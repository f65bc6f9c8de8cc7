import { readFileSync } from 'node:fs';
import { NAMED_MUTATIONS } from '../test/mutation/named.ts';
let bad = 0;
for (const m of NAMED_MUTATIONS as { name: string; file: string; edits: { search: string }[] }[]) {
  const text = readFileSync(m.file, 'utf8');
  for (const e of m.edits) {
    const n = text.split(e.search).length - 1;
    if (n !== 1) { bad++; console.log(`${m.name}: ${n} in ${m.file}`); }
  }
}
console.log(`${(NAMED_MUTATIONS as unknown[]).length} mutations, ${bad} bad`);
