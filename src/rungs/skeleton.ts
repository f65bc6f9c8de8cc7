// `ladder rungs new <name> --server <...>`: a commented rung skeleton for one server, with the
// tools it really lists and their arguments, so a rung author starts from the server's own
// names and schemas instead of guessing them. The listing goes through the lane as
// `ladder probe` does (arm on: what a run would offer).
import { Lane, LaneConfigError, nodePackage, resolveNodeBin } from '../lane/index.ts';
import type { LaneTool, ServerConfig } from '../lane/index.ts';
import { probeTarget, sampleArgs, splitCommand } from '../lane/probe.ts';
import { REFRESH_TOOL } from '../reliability/index.ts';
import { stringify } from 'yaml';
import { EFFECT_METRICS } from './schema.ts';
import { SYNTHETIC_POLICIES } from '../models/spec.ts';

/** How the server goes into the rung: as the user named it, in the rung's own forms. */
export type SkeletonServer =
  | { package: string; args?: string[] }
  | { command: string; args: string[] }
  | { url: string };

/**
 * The rung form of a server named as `ladder probe` takes it: a URL stays a URL, an installed
 * package (`@scope/pkg`, `pkg`, `npx -y pkg`) becomes `package:` (run as node <its bin>, never
 * npx), anything else a command.
 */
export function skeletonServer(target: readonly string[]): { spec: SkeletonServer; config: ServerConfig } {
  const words = target.length === 1 ? splitCommand(target[0]!) : [...target];
  const [first = '', ...rest] = words;
  if (/^https?:\/\//.test(first)) return { spec: { url: first }, config: { url: first } };
  let at = 0;
  if (first === 'npx') {
    at = 1;
    while (at < words.length && words[at]!.startsWith('-')) at += 1;
  }
  const name = words[at] ?? '';
  if (!name.includes('/') || name.startsWith('@')) {
    try {
      resolveNodeBin(name);
      const args = words.slice(at + 1);
      return { spec: { package: name, ...(args.length > 0 ? { args } : {}) } as SkeletonServer, config: nodePackage(name, args) };
    } catch (error) {
      if (!(error instanceof LaneConfigError) || first === 'npx' || name.startsWith('@')) throw error;
    }
  }
  return { spec: { command: first, args: rest }, config: probeTarget(words) };
}

/** A server name the rung can use: `@cyanheads/git-mcp-server` -> `git`. */
export function serverNameFor(spec: SkeletonServer): string {
  if ('url' in spec) return 'remote';
  const source = 'package' in spec ? spec.package : spec.command;
  const base = source.split('/').pop()!.replace(/\.(js|mjs|ts)$/, '').toLowerCase();
  const name = base.replace(/^(mcp-server-|server-|mcp-)/, '').replace(/(-mcp-server|-mcp|-server)$/, '').replace(/[^a-z0-9-]+/g, '-').replace(/^-+|-+$/g, '');
  return name === '' || name === 'harness' ? 'srv' : name.slice(0, 32);
}

/** Lists the server's tools once through the lane; a server that does not start is one line. */
export async function listTools(config: ServerConfig, name: string, timeoutMs = 60_000): Promise<LaneTool[]> {
  await using lane = await Lane.connect({ servers: { [name]: config }, arm: 'on', connectTimeoutMs: timeoutMs, callTimeoutMs: timeoutMs });
  const failed = lane.startErrors[0];
  if (failed !== undefined) throw new LaneConfigError(failed.message);
  const turn = await lane.openTurn();
  return turn.tools.filter((tool) => tool.name !== REFRESH_TOOL);
}

type Property = { type?: unknown; description?: unknown; enum?: unknown[] };

/** One comment line per argument: `name: type (required), one of a|b: description`. */
function argumentLines(schema: Record<string, unknown>): string[] {
  const properties = (schema['properties'] ?? {}) as Record<string, Property>;
  const required = new Set(Array.isArray(schema['required']) ? (schema['required'] as string[]) : []);
  return Object.entries(properties).map(([arg, p]) => {
    const type = Array.isArray(p.type) ? p.type.join('|') : typeof p.type === 'string' ? p.type : 'any';
    const choices = Array.isArray(p.enum) ? `, one of ${p.enum.map(String).join('|')}` : '';
    const description = typeof p.description === 'string' ? `: ${oneLine(p.description)}` : '';
    return `${arg}: ${type}${required.has(arg) ? ' (required)' : ''}${choices}${description}`;
  });
}

function oneLine(text: string, max = 110): string {
  const line = text.replace(/\s+/g, ' ').trim();
  return line.length > max ? `${line.slice(0, max - 3)}...` : line;
}

const indent = (text: string, spaces: number) => text.trimEnd().split('\n').map((l) => `${' '.repeat(spaces)}${l}`).join('\n');

/** The skeleton's text: valid YAML, every TODO a comment or a string the author replaces. */
export function rungSkeleton(rungName: string, serverName: string, spec: SkeletonServer, tools: readonly LaneTool[]): string {
  const first = tools[0];
  const reference = first === undefined
    ? { calls: [], answer: 'TODO the answer a correct agent gives' }
    : { calls: [{ tool: first.name, args: sampleArgs(first.inputSchema) }], answer: 'TODO the answer a correct agent gives' };
  const toolComments = tools.flatMap((tool) => [
    `#   ${tool.name}  ${oneLine(tool.description)}`,
    ...argumentLines(tool.inputSchema).map((line) => `#       ${line}`),
  ]);
  const server = stringify({ [serverName]: spec }, { collectionStyle: 'block' }).trimEnd();
  return [
    `# ${rungName}: a rung against ${'package' in spec ? spec.package : 'command' in spec ? spec.command : spec.url}.`,
    '# Written by `ladder rungs new` from a listing of the server. Replace every TODO, then:',
    `#   ladder rungs validate rungs/${rungName}.yaml    (the reference solves it; every check can fail)`,
    `#   ladder rungs calibrate ${rungName}              (the declared effect is there)`,
    '# The format, field by field: docs/runner.md, "The rung format".',
    `name: ${rungName}`,
    'description: TODO one line, what the agent is asked to do.',
    'origin: >-',
    '  TODO the real failure this rung reproduces: where it was seen and what happened.',
    '# What the reliability layer should do under the pathology below; `ladder rungs calibrate`',
    '# runs both arms and checks it. better: on, off, or same (a control, which must not differ).',
    'effect:',
    '  better: on',
    `  metric: step_pass_rate   # or ${EFFECT_METRICS.filter((m) => m !== 'step_pass_rate').join(', ')}`,
    '  why: TODO what the mechanism changes here, or why a control must not differ.',
    `# The agent synthetic:mix runs here: ${SYNTHETIC_POLICIES.join(', ')}.`,
    'syntheticPolicy: reference',
    '# Tools that are pure functions of their arguments (the repeat short-circuit applies to them).',
    'deterministic: []',
    'servers:',
    indent(server, 2),
    ...('url' in spec ? ['    # To start it for each pass instead: url: http://127.0.0.1:{port}/mcp and a start: block.'] : []),
    `# The tools ${serverName} lists (offered as ${serverName}__<tool>), with their arguments:`,
    ...(toolComments.length > 0 ? toolComments : ['#   (none: the server listed no tools)']),
    'steps:',
    '  - prompt: TODO what the user asks in this step.',
    '    ceiling: 6',
    '    checks:',
    ...(first === undefined
      ? ['      - answer: { mentions: [TODO] }']
      : [`      - called: ${first.name}`, '      - answer: { mentions: [TODO] }']),
    '    reference:',
    indent(stringify(reference, { collectionStyle: 'block' }), 6),
    '',
  ].join('\n');
}
