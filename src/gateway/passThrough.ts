// Resources and prompts through `ladder gateway`, passed to the upstreams as they are: the
// reliability layer is about tool calls, so none of its mechanisms applies here, and nothing
// is traced. What the gateway adds is the aggregation:
// - prompts are named `server__prompt`, as tools are, and routed by that prefix;
// - resources keep their URIs (a URI names its own place); a request for one goes to the
//   server whose resources/list last held it, or, when only one server offers resources, to
//   that one (a URI from a template, or one a client knows already). Any other is refused in
//   one line that says to list resources first;
// - each list is every server's list, every page of it, in the configuration's order: one
//   page to the client, as the tools list is for an ordinary roster.
// A server that is down (restarting) is left out of a list and refused by name for a request.
import type { Client, GetPromptResult, Prompt, ReadResourceResult, Resource, ResourceTemplate } from '../mcp/types.ts';
import { protocolError, RpcCode } from '../mcp/errors.ts';
import { SEPARATOR } from '../reliability/index.ts';

/** What the pass-through needs of the lane: its servers and the client of each that is up. */
export interface UpstreamClients {
  readonly servers: readonly string[];
  clientOf(server: string): Client | undefined;
}

/** What the front offers, decided once at start from what the upstreams declared. */
export interface PassThroughOffer {
  resources: boolean;
  subscribe: boolean;
  prompts: boolean;
}

/** Pages followed per list and server: a bound, so a server that pages forever cannot hang a list. */
const MAX_PAGES = 100;

async function allPages<T>(page: (cursor: string | undefined) => Promise<{ items: T[]; nextCursor?: string | undefined }>): Promise<T[]> {
  const items: T[] = [];
  let cursor: string | undefined;
  for (let n = 0; n < MAX_PAGES; n += 1) {
    const answer = await page(cursor);
    items.push(...answer.items);
    cursor = answer.nextCursor;
    if (cursor === undefined) break;
  }
  return items;
}

export class PassThrough {
  readonly #upstreams: UpstreamClients;
  /** URI -> the server whose latest resources/list held it. */
  readonly #owners = new Map<string, string>();
  /** URI -> the client sessions subscribed to it: the upstream is subscribed once, and left when none is. */
  readonly #subscribers = new Map<string, number>();

  constructor(upstreams: UpstreamClients) {
    this.#upstreams = upstreams;
  }

  /** What the connected upstreams declared: the front declares a capability only if one did. */
  offer(): PassThroughOffer {
    const caps = this.#upstreams.servers.map((s) => this.#upstreams.clientOf(s)?.getServerCapabilities());
    return {
      resources: caps.some((c) => c?.resources !== undefined),
      subscribe: caps.some((c) => c?.resources?.subscribe === true),
      prompts: caps.some((c) => c?.prompts !== undefined),
    };
  }

  /** The servers up now that declared `kind`, with their clients. */
  #offering(kind: 'resources' | 'prompts'): [string, Client][] {
    return this.#upstreams.servers.flatMap((server) => {
      const client = this.#upstreams.clientOf(server);
      return client?.getServerCapabilities()?.[kind] === undefined ? [] : [[server, client] as [string, Client]];
    });
  }

  async listResources(): Promise<Resource[]> {
    const lists = await Promise.all(this.#offering('resources').map(async ([server, client]) => {
      const resources = await allPages(async (cursor) => {
        const answer = await client.listResources(cursor === undefined ? {} : { cursor });
        return { items: answer.resources, nextCursor: answer.nextCursor };
      });
      return { server, resources };
    }));
    for (const { server, resources } of lists) {
      for (const [uri, owner] of this.#owners) if (owner === server) this.#owners.delete(uri);
      for (const resource of resources) if (!this.#owners.has(resource.uri)) this.#owners.set(resource.uri, server);
    }
    return lists.flatMap((l) => l.resources);
  }

  async listResourceTemplates(): Promise<ResourceTemplate[]> {
    const lists = await Promise.all(this.#offering('resources').map(([, client]) => allPages(async (cursor) => {
      const answer = await client.listResourceTemplates(cursor === undefined ? {} : { cursor });
      return { items: answer.resourceTemplates, nextCursor: answer.nextCursor };
    })));
    return lists.flat();
  }

  async readResource(uri: string): Promise<ReadResourceResult> {
    return this.#resourceClient(uri).readResource({ uri });
  }

  async subscribe(uri: string): Promise<void> {
    const count = this.#subscribers.get(uri) ?? 0;
    if (count === 0) await this.#resourceClient(uri).subscribeResource({ uri });
    this.#subscribers.set(uri, count + 1);
  }

  async unsubscribe(uri: string): Promise<void> {
    const count = this.#subscribers.get(uri) ?? 0;
    if (count > 1) {
      this.#subscribers.set(uri, count - 1);
      return;
    }
    this.#subscribers.delete(uri);
    await this.#resourceClient(uri).unsubscribeResource({ uri });
  }

  #resourceClient(uri: string): Client {
    const owner = this.#owners.get(uri);
    if (owner !== undefined) return this.#clientUp(owner);
    const offering = this.#offering('resources');
    if (offering.length === 1) return offering[0]![1];
    throw protocolError(RpcCode.InvalidParams, `resource ${JSON.stringify(uri)}: no server's resources/list held it, and ${offering.length} servers offer resources; list resources first`, { uri });
  }

  #clientUp(server: string): Client {
    const client = this.#upstreams.clientOf(server);
    if (client === undefined) throw protocolError(RpcCode.InternalError, `server ${server} is restarting; ask again in a few seconds`);
    return client;
  }

  async listPrompts(): Promise<Prompt[]> {
    const lists = await Promise.all(this.#offering('prompts').map(async ([server, client]) => {
      const prompts = await allPages(async (cursor) => {
        const answer = await client.listPrompts(cursor === undefined ? {} : { cursor });
        return { items: answer.prompts, nextCursor: answer.nextCursor };
      });
      return prompts.map((p) => ({ ...p, name: `${server}${SEPARATOR}${p.name}` }));
    }));
    return lists.flat();
  }

  async getPrompt(name: string, args: Record<string, string> | undefined): Promise<GetPromptResult> {
    const at = name.indexOf(SEPARATOR);
    const server = at < 0 ? '' : name.slice(0, at);
    if (!this.#upstreams.servers.includes(server)) {
      throw protocolError(RpcCode.InvalidParams, `prompt ${JSON.stringify(name)}: not a name prompts/list gave (server${SEPARATOR}prompt)`);
    }
    return this.#clientUp(server).getPrompt({ name: name.slice(at + SEPARATOR.length), ...(args === undefined ? {} : { arguments: args }) });
  }
}
