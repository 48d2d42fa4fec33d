/**
 * Preloaded with `node --import` by tests/cli/help.test.ts: prints every
 * module the process loads to stderr, one `LOADED <url>` line each. ES
 * module imports are seen by a resolve hook (trace-hooks.mjs), CommonJS
 * requires by a wrapper around Module._load.
 */
import { writeSync } from 'node:fs';
import Module, { register } from 'node:module';

register(new URL('./trace-hooks.mjs', import.meta.url));

const load = Module._load;
Module._load = function tracedLoad(request, parent, isMain) {
  try {
    const file = Module._resolveFilename(request, parent, isMain);
    if (file.startsWith('/')) writeSync(2, `LOADED file://${file}\n`);
  } catch {
    // Not resolvable here: the real load reports it.
  }
  return load.call(this, request, parent, isMain);
};
