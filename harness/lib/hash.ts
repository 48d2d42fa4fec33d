import { createHash } from 'node:crypto';

export function sha256Hex(data: string | Uint8Array): string {
  return createHash('sha256').update(data).digest('hex');
}

export function sha1Hex(data: string | Uint8Array): string {
  return createHash('sha1').update(data).digest('hex');
}

/** The object id `git hash-object` prints for these bytes. */
export function gitBlobId(content: Uint8Array): string {
  const header = Buffer.from(`blob ${content.byteLength}\0`, 'utf8');
  return createHash('sha1').update(header).update(content).digest('hex');
}
