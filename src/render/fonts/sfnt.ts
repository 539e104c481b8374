/**
 * Reading and writing the table directory of a TrueType (sfnt) font: enough
 * to take tables out of one font and put them into another.
 */

export type Tables = Map<string, Buffer>;

/** The tables of a TrueType font, by tag. */
export function readTables(font: Buffer): Tables {
  const tables: Tables = new Map();
  const count = font.readUInt16BE(4);
  for (let at = 0; at < count; at++) {
    const record = 12 + at * 16;
    const tag = font.toString('latin1', record, record + 4);
    const offset = font.readUInt32BE(record + 8);
    const length = font.readUInt32BE(record + 12);
    tables.set(tag, font.subarray(offset, offset + length));
  }
  return tables;
}

function checksum(data: Buffer): number {
  const padded = data.length % 4 === 0 ? data : Buffer.concat([data, Buffer.alloc(4 - (data.length % 4))]);
  let sum = 0;
  for (let at = 0; at < padded.length; at += 4) sum = (sum + padded.readUInt32BE(at)) >>> 0;
  return sum;
}

/** A TrueType font of these tables (sorted by tag, 4-byte aligned, with checksums and head's adjustment). */
export function writeTables(tables: Tables): Buffer {
  const tags = [...tables.keys()].sort();
  const headerLength = 12 + tags.length * 16;
  const header = Buffer.alloc(headerLength);
  const searchRange = 2 ** Math.floor(Math.log2(tags.length)) * 16;
  header.writeUInt32BE(0x00010000, 0);
  header.writeUInt16BE(tags.length, 4);
  header.writeUInt16BE(searchRange, 6);
  header.writeUInt16BE(Math.floor(Math.log2(tags.length)), 8);
  header.writeUInt16BE(tags.length * 16 - searchRange, 10);
  const bodies: Buffer[] = [];
  let offset = headerLength;
  tags.forEach((tag, at) => {
    let data = tables.get(tag)!;
    if (tag === 'head') {
      data = Buffer.from(data);
      data.writeUInt32BE(0, 8);
    }
    const record = 12 + at * 16;
    header.write(tag, record, 'latin1');
    header.writeUInt32BE(checksum(data), record + 4);
    header.writeUInt32BE(offset, record + 8);
    header.writeUInt32BE(data.length, record + 12);
    const padding = (4 - (data.length % 4)) % 4;
    bodies.push(data, Buffer.alloc(padding));
    offset += data.length + padding;
  });
  const font = Buffer.concat([header, ...bodies]);
  const head = tags.indexOf('head');
  if (head >= 0) {
    const headOffset = header.readUInt32BE(12 + head * 16 + 8);
    font.writeUInt32BE((0xb1b0afba - checksum(font)) >>> 0, headOffset + 8);
  }
  return font;
}
