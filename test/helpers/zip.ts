// Reads the entries of a zip file (a .vsix is one) with node's zlib alone: the central directory
// at the end of the file lists each entry with its offset, method and sizes. Enough for the
// packages this repository builds (no zip64, no encryption); anything else throws.
import { readFileSync } from 'node:fs';
import { inflateRawSync } from 'node:zlib';

/** Every file of the zip at `path`, by its name inside the zip. */
export function readZip(path: string): Map<string, Buffer> {
  const data = readFileSync(path);
  const end = data.lastIndexOf(Buffer.from([0x50, 0x4b, 0x05, 0x06]));
  if (end < 0) throw new Error(`${path} is no zip file (no end of central directory)`);
  const count = data.readUInt16LE(end + 10);
  let at = data.readUInt32LE(end + 16);
  const files = new Map<string, Buffer>();
  for (let i = 0; i < count; i++) {
    if (data.readUInt32LE(at) !== 0x02014b50) throw new Error(`${path}: a broken central directory`);
    const method = data.readUInt16LE(at + 10);
    const compressed = data.readUInt32LE(at + 20);
    const nameLength = data.readUInt16LE(at + 28);
    const extraLength = data.readUInt16LE(at + 30);
    const commentLength = data.readUInt16LE(at + 32);
    const local = data.readUInt32LE(at + 42);
    const name = data.toString('utf8', at + 46, at + 46 + nameLength);
    const start = local + 30 + data.readUInt16LE(local + 26) + data.readUInt16LE(local + 28);
    const raw = data.subarray(start, start + compressed);
    if (method !== 0 && method !== 8) throw new Error(`${path}: ${name} uses compression method ${method}`);
    if (!name.endsWith('/')) files.set(name, method === 8 ? inflateRawSync(raw) : Buffer.from(raw));
    at += 46 + nameLength + extraLength + commentLength;
  }
  return files;
}
