// The part of POSIX tar (ustar, with a pax `path` record for long names) that a workspace
// snapshot needs: regular files and folders, written and read back. A snapshot is a
// `.tar.gz` so that anyone can open it with `tar -xzf` and look at what an agent left; tar is
// small enough to write here rather than take a dependency for it.
//
// Written deterministically: mode 0644 for files and 0755 for folders, owner 0, time 0, so the
// same workspace gives the same bytes.

const BLOCK = 512;
const NAME_BYTES = 100;
const PREFIX_BYTES = 155;

export type TarEntry = { name: string; type: 'file'; data: Buffer } | { name: string; type: 'dir' };

/** A tar stream this reader cannot take apart: the message says where. */
export class TarError extends Error {
  override name = 'TarError';
}

function octal(value: number, width: number): string {
  return `${value.toString(8).padStart(width - 1, '0')}\0`;
}

/** Splits a long name into ustar's prefix and name at a `/`, or undefined when it cannot. */
function ustarName(name: string): { prefix: string; name: string } | undefined {
  if (Buffer.byteLength(name) <= NAME_BYTES) return { prefix: '', name };
  for (let i = name.indexOf('/'); i >= 0; i = name.indexOf('/', i + 1)) {
    const prefix = name.slice(0, i);
    const rest = name.slice(i + 1);
    if (Buffer.byteLength(prefix) <= PREFIX_BYTES && Buffer.byteLength(rest) <= NAME_BYTES && rest !== '') return { prefix, name: rest };
  }
  return undefined;
}

function header(name: string, prefix: string, size: number, flag: string): Buffer {
  const block = Buffer.alloc(BLOCK);
  block.write(name, 0, NAME_BYTES, 'utf8');
  block.write(octal(flag === '5' ? 0o755 : 0o644, 8), 100, 'ascii');
  block.write(octal(0, 8), 108, 'ascii');
  block.write(octal(0, 8), 116, 'ascii');
  block.write(octal(size, 12), 124, 'ascii');
  block.write(octal(0, 12), 136, 'ascii');
  block.write(flag, 156, 'ascii');
  block.write('ustar\u000000', 257, 'ascii');
  block.write(prefix, 345, PREFIX_BYTES, 'utf8');
  block.fill(' ', 148, 156);
  let sum = 0;
  for (const byte of block) sum += byte;
  block.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148, 'ascii');
  return block;
}

function padding(size: number): Buffer {
  return Buffer.alloc((BLOCK - (size % BLOCK)) % BLOCK);
}

/** The blocks of one entry: a pax header first when the name does not fit ustar's fields. */
export function entryBlocks(entry: TarEntry): Buffer[] {
  const name = entry.type === 'dir' ? `${entry.name.replace(/\/$/, '')}/` : entry.name;
  const flag = entry.type === 'dir' ? '5' : '0';
  const size = entry.type === 'file' ? entry.data.length : 0;
  const blocks: Buffer[] = [];
  let fit = ustarName(name);
  if (fit === undefined) {
    // A pax record is "<length> path=<name>\n", the length counting its own digits.
    const body = ` path=${name}\n`;
    let length = Buffer.byteLength(body) + 1;
    while (String(length).length + Buffer.byteLength(body) !== length) length += 1;
    const record = Buffer.from(`${length}${body}`);
    blocks.push(header('PaxHeader', '', record.length, 'x'), record, padding(record.length));
    fit = { prefix: '', name: Buffer.from(name).subarray(0, NAME_BYTES).toString('utf8').replace(/\uFFFD$/, '') };
  }
  blocks.push(header(fit.name, fit.prefix, size, flag));
  if (entry.type === 'file') blocks.push(entry.data, padding(size));
  return blocks;
}

/** Two empty blocks end a tar stream. */
export const TAR_END = Buffer.alloc(BLOCK * 2);

function text(block: Buffer, start: number, length: number): string {
  const field = block.subarray(start, start + length);
  const end = field.indexOf(0);
  return field.subarray(0, end < 0 ? length : end).toString('utf8');
}

function readOctal(block: Buffer, start: number, length: number, what: string, at: number): number {
  const field = text(block, start, length).trim();
  if (!/^[0-7]+$/.test(field)) throw new TarError(`at byte ${at}: ${what} is not an octal number`);
  return Number.parseInt(field, 8);
}

/** Every entry of an uncompressed tar stream, in order; other entry types are skipped. */
export function readTar(tar: Buffer): TarEntry[] {
  const entries: TarEntry[] = [];
  let longName: string | undefined;
  for (let at = 0; at + BLOCK <= tar.length;) {
    const block = tar.subarray(at, at + BLOCK);
    if (block.every((byte) => byte === 0)) break;
    let sum = 0;
    for (let i = 0; i < BLOCK; i += 1) sum += i >= 148 && i < 156 ? 32 : block[i]!;
    if (readOctal(block, 148, 8, 'the header checksum', at) !== sum) throw new TarError(`at byte ${at}: the header checksum does not match`);
    const size = readOctal(block, 124, 12, 'the entry size', at);
    const flag = String.fromCharCode(block[156]!);
    const dataAt = at + BLOCK;
    if (dataAt + size > tar.length) throw new TarError(`at byte ${at}: the entry runs past the end of the stream`);
    const data = tar.subarray(dataAt, dataAt + size);
    at = dataAt + size + padding(size).length;
    if (flag === 'x') {
      const found = /(?:^|\n)\d+ path=([^\n]*)\n/.exec(data.toString('utf8'));
      if (found !== null) longName = found[1];
      continue;
    }
    const prefix = text(block, 345, PREFIX_BYTES);
    const name = longName ?? (prefix === '' ? text(block, 0, NAME_BYTES) : `${prefix}/${text(block, 0, NAME_BYTES)}`);
    longName = undefined;
    if (flag === '5') entries.push({ name: name.replace(/\/$/, ''), type: 'dir' });
    else if (flag === '0' || flag === '\0') entries.push({ name, type: 'file', data: Buffer.from(data) });
  }
  return entries;
}
