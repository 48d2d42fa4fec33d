/**
 * Maintenance: write the JSON Schemas redgreen publishes (campaign and
 * scenario files) to `schemas/`, from the zod schemas that validate them.
 * Run after changing a file format, then `npm run format` (which lays the
 * files out as the repository's other JSON); `tests/campaign/campaign-files.test.ts`
 * fails while the written schemas differ from what this writes.
 *
 *   node dist/scripts/write-schemas.js && npm run format
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { publishedSchemas } from '../harness/campaign/file-schemas.js';
import { packageRoot } from '../harness/lib/package-root.js';
import { installPacks } from '../harness/pack/install-packs.js';
import { SHIPPED_PACKS } from '../packs/index.js';

// The schemas hold what the shipped packs add (their extractors, verbs and fields).
installPacks(SHIPPED_PACKS);

for (const { file, text } of publishedSchemas()) {
  const target = path.join(packageRoot(), 'schemas', file);
  writeFileSync(target, text);
  process.stdout.write(`wrote ${path.relative(process.cwd(), target) || target}\n`);
}
