/**
 * Module resolve hook for trace-modules.mjs: reports every ES module URL
 * resolved. Hooks run on their own thread, whose process.stderr is relayed
 * through the main thread and can be lost at exit; writing to file
 * descriptor 2 directly cannot.
 */
import { writeSync } from 'node:fs';

export async function resolve(specifier, context, next) {
  const found = await next(specifier, context);
  writeSync(2, `LOADED ${found.url}\n`);
  return found;
}
