// The two-step rung the hosted-model stand-in plays (test/helpers/policyServer.ts), and the
// policy that passes it: copy a value between files, then look up the service port. Shared by
// the tests of pacing and cost (provider.test.ts) and of replay (replay.test.ts).

/** The rung's YAML under the given name. */
export const scriptedRung = (name: string): string => `name: ${name}
description: Copy a value between files, then look up the service port.
origin: test fixture
servers:
  wb:
    workbench: {}
setup:
  files:
    in/value.txt: "42\\n"
steps:
  - prompt: Write the number in in/value.txt into out/value.txt.
    ceiling: 4
    checks:
      - file: { path: out/value.txt, matches: '^42$' }
    reference:
      calls:
        - { tool: wb__files_read, args: { path: in/value.txt } }
        - { tool: wb__files_write, args: { path: out/value.txt, content: "42\\n" } }
      answer: Wrote 42 to out/value.txt.
  - prompt: Which port does the service listen on, according to the catalog?
    ceiling: 4
    checks:
      - called: wb__catalog_lookup
      - answer: { mentions: ['8080'] }
    reference:
      calls:
        - { tool: wb__catalog_lookup, args: { topic: config/service } }
      answer: The catalog says the service listens on port 8080.
`;

/** The calls and answer of each step, in order: a policy that passes every step. */
export const SCRIPTED_POLICY = [
  {
    calls: [
      { name: 'wb__files_read', args: { path: 'in/value.txt' } },
      { name: 'wb__files_write', args: { path: 'out/value.txt', content: '42\n' } },
    ],
    answer: 'Wrote 42 to out/value.txt.',
  },
  { calls: [{ name: 'wb__catalog_lookup', args: { topic: 'config/service' } }], answer: 'The catalog says the service listens on port 8080.' },
];
